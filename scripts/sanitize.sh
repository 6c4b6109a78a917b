#!/usr/bin/env bash
# Runs the whole test suite on both C backends with AddressSanitizer and
# UndefinedBehaviorSanitizer: any out-of-bounds access, leak-free-use error or
# undefined behaviour in generated code aborts the program and fails its case.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p ogham
export CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# Leaks are reported separately: an executable that stops at a run-time error exits without freeing.
export ASAN_OPTIONS="detect_leaks=0"
status=0
for backend in c multicore; do
  echo "== $backend with ASan+UBSan"
  ./target/release/ogham test --backend "$backend" "${@:-tests}" || status=1
done
exit $status
