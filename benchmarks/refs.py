"""Builds the hand-written C references (ref/*.c) into build/ref-<name>.

    python3 refs.py [NAME ...]     # build all (or these) that are out of date

The references of the programs without AD are compiled with `gcc -O3
-ffp-contract=off`: single-threaded, no fast-math, no FMA contraction, so
that f32 results match a straightforward evaluation. The references of the
AD benchmarks (objective and gradient, `AD_NAMES`) are compiled as one
would compile numerical code, `gcc -O3 -march=native -fno-math-errno`,
and a second time with `-fopenmp` into build/ref-<name>-omp, the reference
for ogham's multicore backend (run with OMP_NUM_THREADS=2 by run.py).
$CC overrides the compiler and $REF_CFLAGS the flags of every reference
(the OpenMP builds still get -fopenmp).
"""

import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "ref")
BUILD = os.path.join(HERE, "build")
CC = os.environ.get("CC", "gcc")
ENV_CFLAGS = os.environ.get("REF_CFLAGS")
CFLAGS = shlex.split(ENV_CFLAGS or "-O3 -ffp-contract=off")
AD_CFLAGS = shlex.split(ENV_CFLAGS or "-O3 -march=native -fno-math-errno -fopenmp-simd")
AD_NAMES = ["gmm", "lstm", "kmeans_ad"]
NAMES = ["mandelbrot", "nbody", "hotspot", "matmul", "kmeans", "histogram", "scan"] + AD_NAMES


# Benchmarks that compute what another one does, written differently: they
# share its reference.
SAME_AS = {"kmeans_flat": "kmeans"}


def has_openmp(name):
    """Whether the reference also has an OpenMP build (`exe(name, omp=True)`)."""
    return SAME_AS.get(name, name) in AD_NAMES


def exe(name, omp=False):
    return os.path.join(BUILD, "ref-" + SAME_AS.get(name, name) + ("-omp" if omp else ""))


def build(names=NAMES):
    """Compiles each reference whose executable is older than its sources."""
    os.makedirs(BUILD, exist_ok=True)
    header = os.path.join(REF, "futio.h")
    for name in sorted({SAME_AS.get(n, n) for n in names}):
        src = os.path.join(REF, name + ".c")
        variants = [(False, CFLAGS)]
        if has_openmp(name):
            variants = [(False, AD_CFLAGS), (True, AD_CFLAGS + ["-fopenmp"])]
        for omp, flags in variants:
            out = exe(name, omp)
            if os.path.exists(out) and os.path.getmtime(out) >= max(os.path.getmtime(src), os.path.getmtime(header)):
                continue
            cmd = [CC] + flags + ["-o", out, src, "-lm"]
            print(" ".join(cmd), file=sys.stderr, flush=True)
            subprocess.run(cmd, check=True)


if __name__ == "__main__":
    build(sys.argv[1:] or NAMES)
