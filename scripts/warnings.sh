#!/usr/bin/env bash
# Compiles the benchmark and acceptance programs on both C backends with the
# default optimisation (-O3) and -Wall -Wextra -Werror. The test suite
# compiles every test program with -O0 for speed, and some warnings (GCC's
# -Wmaybe-uninitialized, -Wuse-after-free) come only from the optimiser's
# analyses. One program and backend per job, as many jobs at once as the
# machine has cores.
set -euo pipefail
cd "$(dirname "$0")/.."
OGHAM="${OGHAM:-target/release/ogham}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export CFLAGS="-Wall -Wextra -Werror"
export OGHAM out

# Compiles program $1 on backend $2, as an executable and as a library, in
# a directory of its own; prints a line for each program checked.
check_one() {
  local prog="$1" backend="$2"
  local dir
  dir="$(mktemp -d -p "$out")"
  "$OGHAM" "$backend" -o "$dir/prog" "$prog" > /dev/null
  "$OGHAM" "$backend" --library -o "$dir/lib" "$prog" > /dev/null
  cc -std=c11 -O3 -Wall -Wextra -Werror -pthread -c "$dir/lib.c" -o "$dir/lib.o"
  echo "$prog $backend" >> "$out/checked"
}
export -f check_one

jobs=()
# radix_sort: its multicore build copies rows of arrays of rank two in
# parallel (`og_copy_rows`), where GCC's -Warray-bounds once fired.
for prog in benchmarks/*.fut tests/acceptance/*.fut tests/clients/clients.fut tests/programs/radix_sort.fut; do
  # Programs whose test is an expected compile error have no C to check.
  "$OGHAM" check "$prog" > /dev/null 2>&1 || continue
  jobs+=("$prog c" "$prog multicore")
done
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 bash -c 'set -euo pipefail; check_one "$@"' _ ||
  { echo "warnings: a program failed to compile warning-free (above)" >&2; exit 1; }
n=$(wc -l < "$out/checked")
if [ "$n" -ne "${#jobs[@]}" ]; then
  echo "warnings: $n of ${#jobs[@]} compiles checked" >&2
  exit 1
fi
echo "warnings: $((n / 2)) programs, on both backends, as executable and library: warning-free at -O3"
