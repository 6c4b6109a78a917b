#!/usr/bin/env python3
"""Checks each C reference against a Python computation on small inputs.

    python3 check.py [--print-tests]

Builds the references (refs.py), writes small binary inputs, runs each
reference and compares its printed result with the same computation done
in Python: exactly for integer results and for Mandelbrot and the k-means
assignment (single precision is emulated by rounding after every
operation), and within Futhark's tolerance (0.002 relative to the largest
expected magnitude) for the other floating-point results. With
--print-tests it also prints the small `-- ==` test cases (input and
expected output) used in the .fut files.
"""

import io
import math
import random
import subprocess
import sys

import futdata
import refs
from futdata import f32

TOL = 0.002


def mandelbrot(w, h, limit):
    out = []
    for y in range(h):
        ci = f32(-1.5 + f32(f32(3.0 * y) / h))
        row = []
        for x in range(w):
            cr = f32(-2.25 + f32(f32(3.0 * x) / w))
            zr = zi = 0.0
            i = 0
            while i < limit and f32(f32(zr * zr) + f32(zi * zi)) <= 4.0:
                zr, zi = f32(f32(f32(zr * zr) - f32(zi * zi)) + cr), f32(f32(f32(2.0 * zr) * zi) + ci)
                i += 1
            row.append(i)
        out.append(row)
    return [out]


def nbody(xs, ys, zs, ms):
    n = len(xs)
    ax, ay, az = [], [], []
    for i in range(n):
        sx = sy = sz = 0.0
        for j in range(n):
            dx, dy, dz = xs[j] - xs[i], ys[j] - ys[i], zs[j] - zs[i]
            r2 = dx * dx + dy * dy + dz * dz + 0.01
            s = ms[j] / (r2 * math.sqrt(r2))
            sx += dx * s
            sy += dy * s
            sz += dz * s
        ax.append(sx)
        ay.append(sy)
        az.append(sz)
    return [ax, ay, az]


def hotspot(iters, temp, power):
    r, c = len(temp), len(temp[0])
    gh, gw = 0.016 / r, 0.016 / c
    cap = 0.5 * 1.75e6 * 0.0005 * gw * gh
    rx = gw / (2 * 100 * 0.0005 * gh)
    ry = gh / (2 * 100 * 0.0005 * gw)
    rz = 0.0005 / (100 * gh * gw)
    step = 0.001 / (3.0e6 / (0.5 * 0.0005 * 1.75e6))
    t = [row[:] for row in temp]
    for _ in range(iters):
        nt = []
        for i in range(r):
            row = []
            for j in range(c):
                n_ = t[max(i - 1, 0)][j]
                s_ = t[min(i + 1, r - 1)][j]
                w_ = t[i][max(j - 1, 0)]
                e_ = t[i][min(j + 1, c - 1)]
                x = t[i][j]
                row.append(x + step / cap * (power[i][j] + (n_ + s_ - 2 * x) / ry + (e_ + w_ - 2 * x) / rx + (80.0 - x) / rz))
            nt.append(row)
        t = nt
    return [t]


def matmul(a, b):
    return [[[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]]


def kmeans(k, pts):
    d = len(pts[0])
    centres = pts[:k]
    sums = [[0.0] * d for _ in range(k)]
    counts = [0] * k
    for p in pts:
        best, best_d = 0, math.inf
        for c in range(k):
            dist = 0.0
            for j in range(d):
                diff = f32(p[j] - centres[c][j])
                dist = f32(dist + f32(diff * diff))
            if dist < best_d:
                best, best_d = c, dist
        counts[best] += 1
        for j in range(d):
            sums[best][j] += p[j]
    return [[centres[c] if counts[c] == 0 else [s / counts[c] for s in sums[c]] for c in range(k)]]


def histogram(k, xs):
    bins = [0] * k
    for x in xs:
        bins[x % k] += 1
    return [bins]


def scan(xs):
    out, acc = [], 0
    for x in xs:
        acc = (acc + x + 2**31) % 2**32 - 2**31
        out.append(acc)
    return [out]


def flat(v):
    if isinstance(v, list):
        for x in v:
            yield from flat(x)
    else:
        yield v


def shape(v):
    s = []
    while isinstance(v, list):
        s.append(len(v))
        v = v[0] if v else None
    return s


def compare(expected, got, exact):
    if len(expected) != len(got):
        return "expected %d values, got %d" % (len(expected), len(got))
    for i, (e, g) in enumerate(zip(expected, got)):
        if shape(e) != shape(g):
            return "value %d: shape %s, expected %s" % (i, shape(g), shape(e))
        fe, fg = list(flat(e)), list(flat(g))
        tol = 0 if exact else max(TOL, TOL * max(abs(x) for x in fe))
        bad = [(j, x, y) for j, (x, y) in enumerate(zip(fe, fg)) if abs(x - y) > tol]
        if bad:
            j, x, y = bad[0]
            return "value %d index %d: expected %r, got %r (%d mismatches)" % (i, j, x, y, len(bad))
    return None


def fvec(rng, n, lo, hi):
    return [f32(rng.uniform(lo, hi)) for _ in range(n)]


def rows(v, c):
    return [v[i:i + c] for i in range(0, len(v), c)]


def cases():
    """(benchmark, [(elem type, dims or None, value)] inputs, python result, exact?)"""
    rng = random.Random(7)
    out = []
    out.append(("mandelbrot", [("i64", None, 8), ("i64", None, 4), ("i32", None, 50)], None, True))
    out.append(("mandelbrot", [("i64", None, 37), ("i64", None, 23), ("i32", None, 255)], None, True))
    n = 5
    body = [fvec(rng, n, -1, 1) for _ in range(3)] + [fvec(rng, n, 0.5, 1.5)]
    out.append(("nbody", [("f32", [n], v) for v in body], nbody(*body), False))
    n = 60
    body = [fvec(rng, n, -1, 1) for _ in range(3)] + [fvec(rng, n, 0.5, 1.5)]
    out.append(("nbody", [("f32", [n], v) for v in body], nbody(*body), False))
    for (r, c, it) in [(4, 3, 2), (17, 23, 30)]:
        t = rows(fvec(rng, r * c, 320, 340), c)
        p = rows(fvec(rng, r * c, 0, 7e-4), c)
        out.append(("hotspot", [("i32", None, it), ("f32", [r, c], t), ("f32", [r, c], p)], hotspot(it, t, p), False))
    for (n, m, p) in [(2, 3, 2), (31, 17, 9)]:
        a = rows(fvec(rng, n * m, -1, 1), m)
        b = rows(fvec(rng, m * p, -1, 1), p)
        out.append(("matmul", [("f32", [n, m], a), ("f32", [m, p], b)], matmul(a, b), False))
    for (n, d, k) in [(8, 2, 2), (500, 5, 7)]:
        pts = rows(fvec(rng, n * d, 0, 1), d)
        out.append(("kmeans", [("i64", None, k), ("f32", [n, d], pts)], kmeans(k, pts), False))
    # An empty cluster: the second centre equals the first, so it never wins.
    pts = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.5, 0.25]]
    out.append(("kmeans", [("i64", None, 2), ("f32", [4, 2], pts)], kmeans(2, pts), False))
    for (n, k) in [(10, 5), (5000, 37)]:
        xs = [rng.randrange(0, 1 << 24) for _ in range(n)]
        out.append(("histogram", [("i64", None, k), ("i32", [n], xs)], histogram(k, xs), True))
    for n in [8, 5000]:
        xs = [rng.randrange(-128, 128) for _ in range(n)]
        out.append(("scan", [("i32", [n], xs)], scan(xs), True))
    xs = [2**31 - 1, 1, 5]
    out.append(("scan", [("i32", [3], xs)], scan(xs), True))
    return out


def encode(inputs):
    buf = io.BytesIO()
    for elem, dims, v in inputs:
        if dims is None:
            futdata.write_scalar(buf, elem, v)
        else:
            from array import array
            futdata.write_array(buf, elem, dims, array({"f32": "f", "i32": "i"}[elem], flat(v)))
    return buf.getvalue()


def main(argv):
    refs.build()
    failures = 0
    for bench, inputs, expected, exact in cases():
        if bench == "mandelbrot":
            expected = mandelbrot(*(v for _, _, v in inputs))
        data = encode(inputs)
        res = subprocess.run([refs.exe(bench), "-t", "/dev/null"], input=data, capture_output=True, check=True)
        got = futdata.parse_text(res.stdout.decode())
        # The binary output must hold the same values.
        resb = subprocess.run([refs.exe(bench), "-b", "-r", "2", "-t", "/dev/null"], input=data,
                              capture_output=True, check=True)
        err = compare(expected, got, exact)
        if err is None and resb.stdout[:1] != b"b":
            err = "binary output does not start with 'b'"
        label = "%s %s" % (bench, " ".join(str(d) if d else str(v) for _, d, v in inputs))
        print("%-40s %s" % (label[:40], "ok" if err is None else "FAILED: " + err))
        failures += err is not None
        ins = " ".join(futdata.to_text(v, e) for e, _, v in inputs)
        if "--print-tests" in argv and len(ins) + len(res.stdout) < 1500:
            print("  input { %s }\n  output { %s }" % (ins, res.stdout.decode().strip().replace("\n", " ")))
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
