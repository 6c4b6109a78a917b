#!/usr/bin/env bash
# Type-checks the programs of futhark-benchmarks with ogham.
#
#   scripts/futhark-benchmarks.sh GITDIR [OGHAM]
#
# GITDIR is a git directory of the public diku-dk/futhark-benchmarks
# repository (its `lib/` folders are committed). Its HEAD is extracted to a
# temporary folder; nothing is copied into this repository. A benchmark
# program is a `.fut` file outside `lib/` with a `-- ==` block. Prints one
# line per failing program with its first error, then the count.
set -euo pipefail
gitdir=${1:?usage: futhark-benchmarks.sh GITDIR [OGHAM]}
ogham=${2:-"$(cd "$(dirname "$0")/.." && pwd)/target/release/ogham"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$gitdir" archive HEAD | tar -x -C "$work"
total=0
passed=0
while IFS= read -r f; do
  grep -q '^-- ==' "$f" || continue
  total=$((total + 1))
  if out=$(timeout 60 "$ogham" check "$f" 2>&1); then
    passed=$((passed + 1))
  else
    echo "FAIL ${f#"$work"/}: $(echo "$out" | head -1)"
  fi
done < <(find "$work" -name '*.fut' -not -path '*/lib/*' | sort)
echo "$passed of $total benchmark programs type-check"
