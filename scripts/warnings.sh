#!/usr/bin/env bash
# Compiles the benchmark and acceptance programs on both C backends with the
# default optimisation (-O3) and -Wall -Wextra -Werror. The test suite
# compiles every test program with -O0 for speed, and some warnings (GCC's
# -Wmaybe-uninitialized, -Wuse-after-free) come only from the optimiser's
# analyses.
set -euo pipefail
cd "$(dirname "$0")/.."
OGHAM="${OGHAM:-target/release/ogham}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export CFLAGS="-Wall -Wextra -Werror"
n=0
for prog in benchmarks/*.fut tests/acceptance/*.fut tests/clients/clients.fut; do
  # Programs whose test is an expected compile error have no C to check.
  "$OGHAM" check "$prog" > /dev/null 2>&1 || continue
  for backend in c multicore; do
    "$OGHAM" "$backend" -o "$out/prog" "$prog" > /dev/null
    "$OGHAM" "$backend" --library -o "$out/lib" "$prog" > /dev/null
    cc -std=c11 -O3 -Wall -Wextra -Werror -pthread -c "$out/lib.c" -o "$out/lib.o"
    n=$((n + 1))
  done
done
echo "warnings: $((n / 2)) programs, on both backends, as executable and library: warning-free at -O3"
