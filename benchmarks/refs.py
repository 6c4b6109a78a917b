"""Builds the hand-written C references (ref/*.c) into build/ref-<name>.

    python3 refs.py          # build all that are out of date

Compiled with `gcc -O3 -ffp-contract=off` (override the compiler with $CC
and the flags with $REF_CFLAGS): single-threaded, no fast-math, no FMA
contraction, so that f32 results match a straightforward evaluation.
"""

import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "ref")
BUILD = os.path.join(HERE, "build")
CC = os.environ.get("CC", "gcc")
CFLAGS = shlex.split(os.environ.get("REF_CFLAGS", "-O3 -ffp-contract=off"))
NAMES = ["mandelbrot", "nbody", "hotspot", "matmul", "kmeans", "histogram", "scan"]


# Benchmarks that compute what another one does, written differently: they
# share its reference.
SAME_AS = {"kmeans_flat": "kmeans"}


def exe(name):
    return os.path.join(BUILD, "ref-" + SAME_AS.get(name, name))


def build(names=NAMES):
    """Compiles each reference whose executable is older than its sources."""
    os.makedirs(BUILD, exist_ok=True)
    header = os.path.join(REF, "futio.h")
    for name in sorted({SAME_AS.get(n, n) for n in names}):
        src = os.path.join(REF, name + ".c")
        out = exe(name)
        if os.path.exists(out) and os.path.getmtime(out) >= max(os.path.getmtime(src), os.path.getmtime(header)):
            continue
        cmd = [CC] + CFLAGS + ["-o", out, src, "-lm"]
        print(" ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)


if __name__ == "__main__":
    build(sys.argv[1:] or NAMES)
