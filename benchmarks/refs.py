"""Builds the hand-written C references (ref/*.c) into build/.

    python3 refs.py [NAME ...]     # build all (or these) that are out of date

Every reference is written as one writes numerical C (see README.md) and
compiled as such, with the flags ogham compiles its own C with plus
OpenMP's, twice:

* build/ref-<name>: `gcc -O3 -march=native -mtune=generic
  -mprefer-vector-width=512 -fno-math-errno -fno-trapping-math
  -fopenmp-simd`, the reference for ogham's sequential
  backend. -mtune=generic: GCC 12's tuning for AMD Zen 3 makes the GMM
  reference 15-20% slower there. -fno-trapping-math lets
  gcc compute a float comparison a select may not need, without which it
  keeps the Mandelbrot reference's lanes scalar on CPUs without masked
  vector instructions (AVX2: 4-6x slower). -fopenmp-simd makes the `#pragma omp simd`
  loops and reductions vectorise and ignores the other OpenMP pragmas;
  -mprefer-vector-width=512 lets gcc use 512-bit vectors where the CPU has
  them (it prefers 256 bits on some that do; the flag is left out if the
  compiler does not know it). Contraction into fused multiply-adds is
  gcc's default, as in any C a programmer compiles with these flags: gcc
  fuses a*b + c anywhere in the source, where ogham fuses only the
  products a float sum's reduction adds (docs/language.md).
* build/ref-<name>-omp: the same with -fopenmp, the reference for ogham's
  multicore backend (run with OMP_NUM_THREADS threads; run.py sets 2).

The BLAS references (`BLAS_NAMES`: the matrix product and the k-means
objective through cblas_sgemm) link OpenBLAS (Debian: libopenblas-dev);
their sequential build runs it on one thread, their OpenMP build on
OMP_NUM_THREADS threads. Without OpenBLAS they are skipped with a message
(`have_blas()` says whether they can be built).

$CC overrides the compiler and $REF_CFLAGS the flags (-fopenmp is still
added for the OpenMP builds).
"""

import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "ref")
BUILD = os.path.join(HERE, "build")
CC = os.environ.get("CC", "gcc")
BASE_CFLAGS = ["-O3", "-march=native", "-mtune=generic", "-fno-math-errno", "-fno-trapping-math", "-fopenmp-simd"]
VEC512 = "-mprefer-vector-width=512"
OMP_FLAGS = ["-fopenmp"]
BLAS_LIBS = ["-lopenblas"]
AD_NAMES = ["gmm", "lstm", "kmeans_ad"]
BLAS_NAMES = ["matmul_blas", "kmeans_ad_blas"]
NAMES = ["mandelbrot", "nbody", "hotspot", "matmul", "kmeans", "histogram", "scan", "rowsums"] + AD_NAMES
HEADERS = ["futio.h", "blas.h"]


# Benchmarks that compute what another one does, written differently: they
# share its reference.
SAME_AS = {"kmeans_flat": "kmeans"}

# Benchmarks with a BLAS reference: benchmark -> (reference, entry point it
# computes).
BLAS_OF = {"matmul": ("matmul_blas", "main"), "kmeans_ad": ("kmeans_ad_blas", "objective")}


def has_openmp(name):
    """Whether the reference has an OpenMP build (all of them do)."""
    return True


def exe(name, omp=False):
    return os.path.join(BUILD, "ref-" + SAME_AS.get(name, name) + ("-omp" if omp else ""))


_cflags = None


def cflags():
    """The flags of the references: $REF_CFLAGS, else BASE_CFLAGS and
    VEC512 if the compiler accepts it."""
    global _cflags
    if _cflags is None:
        if os.environ.get("REF_CFLAGS"):
            _cflags = shlex.split(os.environ["REF_CFLAGS"])
        else:
            probe = subprocess.run([CC, VEC512, "-E", "-x", "c", os.devnull], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
            _cflags = BASE_CFLAGS + ([VEC512] if probe.returncode == 0 else [])
    return _cflags


_have_blas = None


def have_blas():
    """Whether OpenBLAS's CBLAS can be compiled against and linked (checked once)."""
    global _have_blas
    if _have_blas is None:
        src = ("#include <cblas.h>\nvoid openblas_set_num_threads(int);\nint main(void) {\n"
               "  float a = 1, b = 2, c = 0;\n  openblas_set_num_threads(1);\n"
               "  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1, &a, 1, &b, 1, 0, &c, 1);\n"
               "  return c != 2;\n}\n")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "probe.c")
            with open(path, "w") as f:
                f.write(src)
            res = subprocess.run([CC, "-o", os.path.join(tmp, "probe"), path] + BLAS_LIBS,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _have_blas = res.returncode == 0 and subprocess.run([os.path.join(tmp, "probe")]).returncode == 0
    return _have_blas


def blas_refs(names):
    """The BLAS references of these benchmarks (names of refs or of benchmarks)."""
    out = []
    for n in names:
        if n in BLAS_NAMES:
            out.append(n)
        elif n in BLAS_OF:
            out.append(BLAS_OF[n][0])
    return out


def build(names=NAMES, blas=True):
    """Compiles each reference whose executables are older than their
    sources; with `blas`, also the BLAS references of these benchmarks (if
    OpenBLAS is installed; otherwise says so once and skips them)."""
    os.makedirs(BUILD, exist_ok=True)
    headers = [os.path.join(REF, h) for h in HEADERS]
    unknown = [n for n in names if n not in NAMES + BLAS_NAMES + list(SAME_AS)]
    if unknown:
        raise SystemExit("unknown reference: %s" % ", ".join(unknown))
    todo = sorted({SAME_AS.get(n, n) for n in names if n not in BLAS_NAMES})
    wanted_blas = sorted(set(blas_refs(names))) if blas else []
    if wanted_blas and not have_blas():
        print("skipping the OpenBLAS references (%s): OpenBLAS not found (Debian: apt-get install "
              "libopenblas-dev)" % ", ".join(wanted_blas), file=sys.stderr, flush=True)
        wanted_blas = []
    for name in todo + wanted_blas:
        src = os.path.join(REF, name + ".c")
        libs = ["-lm"] + (BLAS_LIBS if name in BLAS_NAMES else [])
        for omp in (False, True):
            out = exe(name, omp)
            newest = max(os.path.getmtime(p) for p in [src, __file__] + headers)
            if os.path.exists(out) and os.path.getmtime(out) >= newest:
                continue
            cmd = [CC] + cflags() + (OMP_FLAGS if omp else []) + ["-o", out, src] + libs
            print(" ".join(cmd), file=sys.stderr, flush=True)
            subprocess.run(cmd, check=True)


if __name__ == "__main__":
    build(sys.argv[1:] or NAMES + BLAS_NAMES)
