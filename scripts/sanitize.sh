#!/usr/bin/env bash
# Runs the whole test suite on both C backends with AddressSanitizer and
# UndefinedBehaviorSanitizer: any out-of-bounds access, leak-free-use error or
# undefined behaviour in generated code aborts the program and fails its case.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p ogham
export CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# LeakSanitizer too: a run that leaks exits non-zero and fails its case. A run
# expected to fail is judged by its error message, so its leaks go unnoticed
# here; scripts/leaks.sh checks that failed calls free their memory.
export ASAN_OPTIONS="detect_leaks=1"
status=0
for backend in c multicore; do
  echo "== $backend with ASan+UBSan"
  ./target/release/ogham test --backend "$backend" "${@:-tests}" || status=1
done
exit $status
