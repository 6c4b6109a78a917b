#!/usr/bin/env bash
# Checks that failed entry-point calls leave no memory behind, on both C
# backends: the programs in scripts/leaks/ fail at run time after allocating
# arrays in nested blocks, loops and parallel loops (generated code returns
# straight out of them; the runtime frees what they owned, see og_call_end
# in crates/ogham-c/rts/core.h).
#
#  - a `--server` executable runs every failing call 50 times over; the
#    memory it holds (`report`) must be the same after the first round and
#    after the last, and the calls that follow must still work;
#  - a plain executable stops at a run-time error;
#  - a C client of the `--library` build (scripts/leaks/library.c) checks the
#    context's byte counter and list of live blocks after every round.
#
# Where the C compiler supports AddressSanitizer, everything is built with it
# and LeakSanitizer checks every exit. Exits non-zero when anything fails.
#
# Usage: scripts/leaks.sh         (OGHAM=path/to/ogham uses that binary)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -z "${OGHAM:-}" ]; then
  (cd "$root" && cargo build --release --quiet -p ogham)
  OGHAM="${CARGO_TARGET_DIR:-$root/target}/release/ogham"
fi
cc="${CC:-cc}"

cflags="-Wall -Wextra -Werror"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
export ASAN_OPTIONS="detect_leaks=1"
printf 'int main(void) { return 0; }\n' > "$work/probe.c"
if "$cc" $sanitize "$work/probe.c" -o "$work/probe" >/dev/null 2>&1 && "$work/probe" >/dev/null 2>&1; then
  cflags="$cflags $sanitize"
  echo "leaks: with AddressSanitizer and LeakSanitizer"
elif "$cc" $sanitize "$work/probe.c" -o "$work/probe" >/dev/null 2>&1 &&
  ASAN_OPTIONS="detect_leaks=0" "$work/probe" >/dev/null 2>&1; then
  # LeakSanitizer cannot run everywhere (it needs ptrace, for one).
  cflags="$cflags $sanitize"
  export ASAN_OPTIONS="detect_leaks=0"
  echo "leaks: with AddressSanitizer (LeakSanitizer unavailable here)"
else
  echo "leaks: $cc has no AddressSanitizer; checking the byte counters only"
fi
export CFLAGS="${CFLAGS:-} $cflags"

# i64 scalars in the binary value format: n = 1000, ok = 5, bad = 1000.
# shellcheck disable=SC2059 # the argument is octal escapes, for printf to expand
i64() { printf 'b\002\000 i64'; printf "$1"; printf '\000\000\000\000\000\000'; }
{ i64 '\350\003'; i64 '\005\000'; i64 '\350\003'; } > "$work/scalars.bin"
"$OGHAM" dataset -b -g '[1000]i64' > "$work/array.bin"

# One round: every entry point fails once; `a` is an input held by a failing
# loop and consumed by a failing call, and is freed afterwards.
# Every output name is new, so a call that wrongly succeeded cannot make the
# next ones fail for another reason.
calls=0
round() {
  echo "restore $work/array.bin a []i64"
  for e in idx inloop sums nested several huge; do
    calls=$((calls + 1))
    echo "call $e out$calls n bad"
  done
  calls=$((calls + 2))
  echo "call held out$((calls - 1)) a bad"
  echo "call consume out$calls a bad"
  echo "free a"
}
fails_per_round=8
rounds=50

status=0
fail() { echo "leaks: $*" >&2; status=1; }

for backend in c multicore; do
  echo "== $backend"
  dir="$work/$backend"
  mkdir -p "$dir"
  cp "$root"/scripts/leaks/leaks.fut "$root"/scripts/leaks/library.c "$dir"/

  # The server.
  "$OGHAM" "$backend" --server -o "$dir/server" "$dir/leaks.fut"
  {
    echo "restore $work/scalars.bin n i64 ok i64 bad i64"
    echo "restore $work/array.bin keep []i64"
    # A result made before the failures, used after them.
    echo "call idx before n ok"
    round
    echo "report"
    for _ in $(seq 2 $rounds); do round; done
    echo "report"
    echo "call held after keep ok"
    echo "call idx after2 n ok"
    echo "store $dir/after.bin before after2"
  } > "$dir/commands"
  if ! "$dir/server" < "$dir/commands" > "$dir/server.out" 2> "$dir/server.err"; then
    cat "$dir/server.err" >&2
    fail "$backend: the server exited with an error"
  fi
  nfail=$(grep -c '^%%% FAILURE' "$dir/server.out" || true)
  [ "$nfail" = $((fails_per_round * rounds)) ] ||
    fail "$backend: $nfail failed calls, expected $((fails_per_round * rounds))"
  mapfile -t current < <(sed -n 's/^Current memory usage: \([0-9]*\) bytes$/\1/p' "$dir/server.out")
  if [ "${#current[@]}" != 2 ]; then
    fail "$backend: no memory report"
  elif [ "${current[0]}" != "${current[1]}" ]; then
    fail "$backend: the server holds ${current[0]} bytes after one round of failed calls, ${current[1]} after $rounds"
  else
    echo "server: ${current[1]} bytes held after $((fails_per_round * rounds)) failed calls, as after $fails_per_round"
  fi
  # Both idx results are 2*5+1 + 0 = 11: the values made before and after the failures are right.
  { i64 '\013\000'; i64 '\013\000'; } > "$dir/expected.bin"
  cmp -s "$dir/after.bin" "$dir/expected.bin" || fail "$backend: wrong results around the failed calls"

  # The plain executable: one failed run, reported, and no leak at exit.
  "$OGHAM" "$backend" -o "$dir/exe" "$dir/leaks.fut"
  { i64 '\350\003'; i64 '\350\003'; } > "$dir/nested.in"
  rc=0
  "$dir/exe" -e nested -r 3 < "$dir/nested.in" > /dev/null 2> "$dir/exe.err" || rc=$?
  [ "$rc" = 1 ] && grep -q "out of bounds" "$dir/exe.err" ||
    { cat "$dir/exe.err" >&2; fail "$backend: the executable exited with $rc, expected a run-time error (1)"; }

  # The library.
  "$OGHAM" "$backend" --library -o "$dir/leaks" "$dir/leaks.fut"
  # shellcheck disable=SC2086
  "$cc" -std=c11 $CFLAGS -O1 -pthread -I"$dir" "$dir/library.c" -o "$dir/library" -lm
  "$dir/library" || fail "$backend: the library client failed"
done
[ $status = 0 ] && echo "leaks: all passed"
exit $status
