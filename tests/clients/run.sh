#!/usr/bin/env bash
# Integration tests of ogham's output with the real Python clients from PyPI:
# futhark-data (value formats), futhark-server (the --server protocol) and
# futhark-ffi (the --library C API and manifest), on both C backends.
#
# Usage: tests/clients/run.sh
#   OGHAM=path/to/ogham    use this binary instead of building one
#   CLIENTS_VENV=dir       reuse (or create) this virtualenv
# Exits non-zero when anything fails.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

venv="${CLIENTS_VENV:-$work/venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
# setuptools: cffi compiles the futhark-ffi module through it (Python >= 3.12 lacks distutils).
"$venv/bin/pip" install --quiet futhark-data futhark-server futhark-ffi numpy cffi setuptools
py="$venv/bin/python"

if [ -z "${OGHAM:-}" ]; then
  (cd "$root" && cargo build --release --quiet -p ogham)
  OGHAM="${CARGO_TARGET_DIR:-$root/target}/release/ogham"
fi

# Generated C must be warning-free.
export CFLAGS="${CFLAGS:-} -Wall -Wextra -Werror"

# Both backends at once, each in a subshell that stops at its first
# failure; each one's output is printed when it is done.
run_backend() {
  set -euo pipefail
  local backend="$1"
  echo "== $backend"
  dir="$work/$backend"
  mkdir -p "$dir"
  cp "$here"/clients.fut "$here"/test_*.py "$dir"/
  "$OGHAM" "$backend" -o "$dir/clients_exe" "$dir/clients.fut"
  "$py" "$dir/test_data.py" "$dir/clients_exe"
  # Futhark's tools start server executables bare (`futhark c --server`);
  # any executable also serves when given --server.
  "$OGHAM" "$backend" --server -o "$dir/clients_server" "$dir/clients.fut"
  "$py" "$dir/test_server.py" "$dir/clients_server"
  "$py" "$dir/test_server.py" "$dir/clients_exe" --server

  "$OGHAM" "$backend" --library -o "$dir/clients" "$dir/clients.fut"
  "$py" "$here/check_manifest.py" "$dir/clients.json" "$backend"
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pthread -c "$dir/clients.c" -o "$dir/clients.o"
  # Sum types through the C API, from C (futhark-ffi has no use for them).
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pthread -I"$dir" "$here/test_sum.c" "$dir/clients.o" -o "$dir/test_sum" -lm
  "$dir/test_sum"
  (cd "$dir" && "$venv/bin/build_futhark_ffi" clients > build.log 2>&1) || { cat "$dir/build.log"; exit 1; }
  (cd "$dir" && "$py" test_ffi.py)
}
pids=()
for backend in c multicore; do
  (run_backend "$backend") > "$work/$backend.log" 2>&1 &
  pids+=($!)
done
failed=0
for k in 0 1; do
  wait "${pids[$k]}" || failed=1
done
cat "$work/c.log" "$work/multicore.log"
if [ "$failed" -ne 0 ]; then
  echo "clients: failed (above)" >&2
  exit 1
fi
echo "clients: all passed"

# Failed calls must leave no memory behind in servers, executables and
# libraries (no Python needed: this can also run on its own).
OGHAM="$OGHAM" bash "$root/scripts/leaks.sh"
