#!/usr/bin/env bash
# Runs Futhark's own test suite through ogham, one file at a time, and
# prints the files that fail, a table per folder and the pass rate.
#
#   scripts/futhark-suite.sh GITDIR [BACKEND] [OGHAM]
#
# GITDIR is a git directory of the public diku-dk/futhark repository. Its
# `tests/` folder at the commit we measure against (48a0c814, or $COMMIT) is
# extracted to a temporary folder; nothing is copied into this repository.
# BACKEND is interp (default; datasets tagged `compiled` are excluded, as
# `futhark test -i` does), c or multicore (all datasets). A file passes when
# `ogham test` on it succeeds. Files run two at a time ($JOBS), each with at
# most 90 seconds.
set -euo pipefail
gitdir=${1:?usage: futhark-suite.sh GITDIR [BACKEND] [OGHAM]}
backend=${2:-interp}
ogham=${3:-"$(cd "$(dirname "$0")/.." && pwd)/target/release/ogham"}
commit=${COMMIT:-48a0c814}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$gitdir" archive "$commit" tests | tar -x -C "$work"
exclude=()
[ "$backend" = interp ] && exclude=(--exclude compiled)
export ogham backend work
export exclude_flags="${exclude[*]:-}"
one() {
  rel=${1#"$work"/tests/}
  # shellcheck disable=SC2086
  if out=$(cd "$(dirname "$1")" && timeout 90 "$ogham" test --backend "$backend" $exclude_flags "$(basename "$1")" 2>&1); then
    printf 'PASS\t%s\n' "$rel"
  else
    printf 'FAIL\t%s\t%s\n' "$rel" "$(echo "$out" | grep -m1 . | cut -c1-200)"
  fi
}
export -f one
# The folders `futhark test tests/` covers, as the suite's own CI runs it.
dirs="primitive operator constants overflowing soacs hist scatter loops update letwith shapes
existential-ifs types sumtypes enums higher-order-functions uniqueness safety errors params
rosettacode fusion ad modules"
{
  find "$work/tests" -maxdepth 1 -name '*.fut'
  for d in $dirs; do find "$work/tests/$d" -name '*.fut'; done
} | sort | xargs -P "${JOBS:-2}" -I{} bash -c 'one "$@"' _ {} > "$work/results"
grep '^FAIL' "$work/results" | sort | cut -f2- || true
awk -F'\t' '
  { split($2, p, "/"); f = (index($2, "/") ? p[1] : "top"); n[f]++; if ($1 == "PASS") ok[f]++; all++; if ($1 == "PASS") pass++; if (f != "ad") { na++; if ($1 == "PASS") napass++ } }
  END {
    printf "%-24s %6s %6s\n", "folder", "files", "passed"
    for (f in n) printf "%-24s %6d %6d\n", f, n[f], ok[f]
    printf "total: %d of %d files pass (%.1f%%)\n", pass, all, 100 * pass / all
    printf "outside ad/: %d of %d files pass (%.1f%%)\n", napass, na, 100 * napass / na
  }' "$work/results"
