#!/usr/bin/env python3
"""Generates the benchmark data files into benchmarks/data/ (git-ignored).

    python3 gen.py [--force] [--list] [BENCHMARK|DATASET ...]

Without names, every missing file is generated; existing files are kept
unless --force. Each data set comes from its own fixed seed (Python's
Mersenne Twister), so the files are the same on every machine.
"""

import os
import random
import sys
from array import array

import futdata

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def uniform_f32(rng, count, lo, hi):
    """count floats uniform in [lo, hi), as an array('f')."""
    r = rng.random
    span = hi - lo
    return array("f", [lo + span * r() for _ in range(count)])


def uniform_f64(rng, count, lo, hi):
    """count doubles uniform in [lo, hi), as an array('d')."""
    r = rng.random
    span = hi - lo
    return array("d", [lo + span * r() for _ in range(count)])


def random_bytes(rng, count):
    """count random bytes, drawn in fixed-size chunks (randbytes has a size limit)."""
    chunk = 1 << 24
    return b"".join(rng.randbytes(min(chunk, count - i)) for i in range(0, count, chunk))


def mandelbrot(size):
    def gen(out):
        futdata.write_scalar(out, "i64", size)
        futdata.write_scalar(out, "i64", size)
        futdata.write_scalar(out, "i32", 255)
    return gen


def nbody(n):
    def gen(out):
        rng = random.Random(1000 + n)
        for _ in range(3):  # positions x, y, z in a cube
            futdata.write_array(out, "f32", [n], uniform_f32(rng, n, -1.0, 1.0))
        futdata.write_array(out, "f32", [n], uniform_f32(rng, n, 0.5, 1.5))  # masses
    return gen


def hotspot(size, iterations):
    def gen(out):
        rng = random.Random(2000 + size)
        futdata.write_scalar(out, "i32", iterations)
        futdata.write_array(out, "f32", [size, size], uniform_f32(rng, size * size, 320.0, 340.0))
        futdata.write_array(out, "f32", [size, size], uniform_f32(rng, size * size, 0.0, 7e-4))
    return gen


def matmul(n):
    def gen(out):
        rng = random.Random(3000 + n)
        futdata.write_array(out, "f32", [n, n], uniform_f32(rng, n * n, -1.0, 1.0))
        futdata.write_array(out, "f32", [n, n], uniform_f32(rng, n * n, -1.0, 1.0))
    return gen


def rowsums(rows, cols):
    """A rows×cols matrix uniform in [-1, 1), written a block of at most
    2^20 elements at a time (it is too large to hold as Python floats)."""
    def gen(out):
        rng = random.Random(10000 + rows)
        out.write(futdata.header("f32", [rows, cols]))
        for _ in range(rows):
            for start in range(0, cols, 1 << 20):
                block = uniform_f32(rng, min(1 << 20, cols - start), -1.0, 1.0)
                if sys.byteorder != "little":
                    block.byteswap()
                out.write(block.tobytes())
    return gen


def kmeans(n, d, k):
    def gen(out):
        rng = random.Random(4000 + n)
        futdata.write_scalar(out, "i64", k)
        futdata.write_array(out, "f32", [n, d], uniform_f32(rng, n * d, 0.0, 1.0))
    return gen


def histogram(n, k):
    def gen(out):
        rng = random.Random(5000)
        futdata.write_scalar(out, "i64", k)
        # Values uniform in [0, 2^24): three random low bytes, a zero high byte.
        buf = bytearray(4 * n)
        rnd = random_bytes(rng, 3 * n)
        buf[0::4] = rnd[0::3]
        buf[1::4] = rnd[1::3]
        buf[2::4] = rnd[2::3]
        futdata.write_array(out, "i32", [n], bytes(buf))
    return gen


def scan(n):
    def gen(out):
        rng = random.Random(6000)
        # Values uniform in [-128, 127]: a random low byte, sign-extended.
        low = random_bytes(rng, n)
        high = low.translate(bytes(0xFF if b >= 128 else 0 for b in range(256)))
        buf = bytearray(4 * n)
        buf[0::4] = low
        buf[1::4] = high
        buf[2::4] = high
        buf[3::4] = high
        futdata.write_array(out, "i32", [n], bytes(buf))
    return gen


def gmm(d, k, n):
    """ADBench GMM inputs: alphas, means, icf (log-diagonal in [-0.5, 0.5),
    then the strictly lower part in [-0.1, 0.1)), points, gamma = 1, m = 0.
    The points do not depend on n beyond their count: the smaller data set's
    points are the first ones of the larger."""
    def gen(out):
        t = d * (d + 1) // 2
        rng = random.Random(7000 + 100 * d + k)
        futdata.write_array(out, "f64", [k], uniform_f64(rng, k, -1.0, 1.0))
        futdata.write_array(out, "f64", [k, d], uniform_f64(rng, k * d, 0.0, 1.0))
        icf = array("d")
        for _ in range(k):
            icf.extend(uniform_f64(rng, d, -0.5, 0.5))
            icf.extend(uniform_f64(rng, t - d, -0.1, 0.1))
        futdata.write_array(out, "f64", [k, t], icf)
        futdata.write_array(out, "f64", [n, d], uniform_f64(random.Random(7001), n * d, 0.0, 1.0))
        futdata.write_scalar(out, "f64", 1.0)
        futdata.write_scalar(out, "i64", 0)
    return gen


def lstm(layers, b, c):
    """ADBench D-LSTM inputs: main and extra parameters and the initial
    state in [-1, 1), the sequence in [0, 1)."""
    def gen(out):
        rng = random.Random(8000 + c)
        futdata.write_array(out, "f64", [2 * layers, 4 * b], uniform_f64(rng, 8 * layers * b, -1.0, 1.0))
        futdata.write_array(out, "f64", [3, b], uniform_f64(rng, 3 * b, -1.0, 1.0))
        futdata.write_array(out, "f64", [2 * layers, b], uniform_f64(rng, 2 * layers * b, -1.0, 1.0))
        futdata.write_array(out, "f64", [c, b], uniform_f64(rng, c * b, 0.0, 1.0))
    return gen


def kmeans_ad(k, n, d):
    """Points and centres uniform in [0, 1)^d (the smaller data set's points
    are the first ones of the larger)."""
    def gen(out):
        futdata.write_array(out, "f32", [n, d], uniform_f32(random.Random(9000 + d), n * d, 0.0, 1.0))
        futdata.write_array(out, "f32", [k, d], uniform_f32(random.Random(9001 + k), k * d, 0.0, 1.0))
    return gen


# benchmark -> [(data file name, generator)], in the order of the -- == blocks.
DATASETS = {
    "mandelbrot": [("mandelbrot-1000.in", mandelbrot(1000)), ("mandelbrot-4000.in", mandelbrot(4000))],
    "nbody": [("nbody-10000.in", nbody(10000)), ("nbody-100000.in", nbody(100000))],
    "hotspot": [("hotspot-1024.in", hotspot(1024, 360))],
    "matmul": [("matmul-1024.in", matmul(1024)), ("matmul-2048.in", matmul(2048))],
    "kmeans": [("kmeans-1000000.in", kmeans(1000000, 16, 16))],
    # The same data, the centroid sums flattened to reduce_by_index.
    "kmeans_flat": [("kmeans-1000000.in", kmeans(1000000, 16, 16))],
    "histogram": [("histogram-100000000.in", histogram(100000000, 1000))],
    "scan": [("scan-100000000.in", scan(100000000))],
    # The same number of elements in one row: too few rows to share among
    # the threads, so the sum of the row is what runs in parallel.
    "rowsums": [("rowsums-8192.in", rowsums(8192, 8192)), ("rowsums-1x67108864.in", rowsums(1, 1 << 26))],
    # The AD benchmarks: each data set is run by both entry points (objective
    # and gradient). The sizes are the larger data sets; the smaller
    # ones (n = 1000) are there while vjp of a map reading a free array by
    # index costs O(n·m) memory and time (see README.md).
    "gmm": [("gmm-d64-K25-n1000.in", gmm(64, 25, 1000)), ("gmm-d64-K25-n10000.in", gmm(64, 25, 10000))],
    "lstm": [("lstm-l4-b14-c4096.in", lstm(4, 14, 4096))],
    "kmeans_ad": [("kmeans_ad-k1024-n1000-d256.in", kmeans_ad(1024, 1000, 256)),
                  ("kmeans_ad-k1024-n10000-d256.in", kmeans_ad(1024, 10000, 256))],
}


def generate(names=(), force=False, quiet=False):
    """Writes the selected (default: all) data files that are missing."""
    os.makedirs(DATA, exist_ok=True)
    for bench, sets in DATASETS.items():
        for fname, gen in sets:
            if names and bench not in names and fname not in names and fname[:-3] not in names:
                continue
            path = os.path.join(DATA, fname)
            if os.path.exists(path) and not force:
                continue
            if not quiet:
                print("generating data/%s" % fname, file=sys.stderr, flush=True)
            tmp = path + ".tmp"
            with open(tmp, "wb") as out:
                gen(out)
            os.replace(tmp, path)


def main(argv):
    force = "--force" in argv
    names = [a for a in argv if not a.startswith("--")]
    if "--list" in argv:
        for bench, sets in DATASETS.items():
            for fname, _ in sets:
                print("%s data/%s" % (bench, fname))
        return 0
    unknown = [n for n in names if n not in DATASETS and
               not any(n in (f, f[:-3]) for s in DATASETS.values() for f, _ in s)]
    if unknown:
        print("unknown benchmark or data set: %s" % ", ".join(unknown), file=sys.stderr)
        return 2
    generate(names, force)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
