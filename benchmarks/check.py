#!/usr/bin/env python3
"""Checks each C reference against a Python computation on small inputs.

    python3 check.py [--print-tests]

Builds the references (refs.py), writes small binary inputs, runs each
reference, both its sequential and its OpenMP build (on 2 threads), and
compares its printed result with the same computation done in Python:
exactly for integer results and for Mandelbrot (single precision is
emulated by rounding after every operation), and within Futhark's
tolerance (0.002 relative to the largest expected magnitude) for the other
floating-point results (the references sum in vector lanes, and the OpenMP
builds per thread, so not in the order of the Python sums). The OpenBLAS
references (matrix product, k-means objective) are checked on the same
inputs as the benchmarks they stand beside, when OpenBLAS is installed.
With --print-tests it also prints the small `-- ==` test cases (input and
the expected output computed in Python) used in the .fut files.

The AD benchmarks (gmm, lstm, kmeans_ad) have two entry points, the
objective and its gradient. For them the Python objective is written from
the definition and the Python gradient derived by hand; the gradient is
first checked against central finite differences of the Python objective,
then both entry points of the reference (its sequential and its OpenMP
build) are compared with the Python results, and the objective of the
k-means BLAS reference with the Python objective.

    python3 check.py [--print-tests] [--only-ad]
"""

import io
import math
import os
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



def rowsums(a):
    return [[sum(row) for row in a]]



def scan(xs):
    out, acc = [], 0
    for x in xs:
        acc = (acc + x + 2**31) % 2**32 - 2**31
        out.append(acc)
    return [out]


# ---- The AD benchmarks: objectives from the definitions, gradients derived by hand. ----

# GMM (gmm.fut).
def _lse(v):
    mx = max(v)
    return mx + math.log(sum(math.exp(a - mx) for a in v))


def _tri_index(d, r, c):
    """Position in icf[k] of Q's entry (r, c), c < r."""
    return d + c * (2 * d - c - 1) // 2 + r - c - 1


def _qtimes(q, v):
    d = len(v)
    out = [math.exp(q[r]) * v[r] for r in range(d)]
    for c in range(d):
        for r in range(c + 1, d):
            out[r] += q[_tri_index(d, r, c)] * v[c]
    return out


def _qt_times(q, y):
    d = len(y)
    out = [math.exp(q[c]) * y[c] for c in range(d)]
    for c in range(d):
        for r in range(c + 1, d):
            out[c] += q[_tri_index(d, r, c)] * y[r]
    return out


def gmm_objective(alphas, means, icf, x, gamma, m):
    K, d, n = len(alphas), len(means[0]), len(x)
    slse = 0.0
    for xi in x:
        beta = []
        for k in range(K):
            y = _qtimes(icf[k], [xi[j] - means[k][j] for j in range(d)])
            beta.append(alphas[k] + sum(icf[k][:d]) - 0.5 * sum(t * t for t in y))
        slse += _lse(beta)
    big_n = d + m + 1
    lgd = 0.25 * d * (d - 1) * math.log(math.pi) + sum(math.lgamma(0.5 * big_n + 0.5 * (1 - j)) for j in range(1, d + 1))
    c = big_n * d * (math.log(gamma) - 0.5 * math.log(2)) - lgd
    prior = sum(0.5 * gamma * gamma * (sum(math.exp(t) ** 2 for t in q[:d]) + sum(t * t for t in q[d:])) - m * sum(q[:d])
                for q in icf) - K * c
    return -n * d * 0.5 * math.log(2 * math.pi) + slse - n * _lse(alphas) + prior


def gmm_gradient(alphas, means, icf, x, gamma, m):
    K, d, n = len(alphas), len(means[0]), len(x)
    ga = [0.0] * K
    gm = [[0.0] * d for _ in range(K)]
    gq = [[0.0] * len(icf[0]) for _ in range(K)]
    for xi in x:
        beta, ys, xcs = [], [], []
        for k in range(K):
            xc = [xi[j] - means[k][j] for j in range(d)]
            y = _qtimes(icf[k], xc)
            xcs.append(xc)
            ys.append(y)
            beta.append(alphas[k] + sum(icf[k][:d]) - 0.5 * sum(t * t for t in y))
        lse = _lse(beta)
        for k in range(K):
            w = math.exp(beta[k] - lse)
            ga[k] += w
            qty = _qt_times(icf[k], ys[k])
            for j in range(d):
                gm[k][j] += w * qty[j]
                gq[k][j] += w * (1 - ys[k][j] * xcs[k][j] * math.exp(icf[k][j]))
            for c in range(d):
                for r in range(c + 1, d):
                    gq[k][_tri_index(d, r, c)] -= w * ys[k][r] * xcs[k][c]
    la = _lse(alphas)
    for k in range(K):
        ga[k] -= n * math.exp(alphas[k] - la)
        for j in range(d):
            gq[k][j] += gamma * gamma * math.exp(2 * icf[k][j]) - m
        for t in range(d, len(icf[k])):
            gq[k][t] += gamma * gamma * icf[k][t]
    return [ga, gm, gq]



# D-LSTM (lstm.fut).
def _sigmoid(x):
    return 1 / (1 + math.exp(-x))


def lstm_objective(main, extra, state, seq):
    L, b = len(main) // 2, len(extra[0])
    hs = [list(state[2 * i]) for i in range(L)]
    cs = [list(state[2 * i + 1]) for i in range(L)]
    total = 0.0
    for t in range(len(seq) - 1):
        xp = [seq[t][j] * extra[0][j] for j in range(b)]
        for i in range(L):
            w, bias = main[2 * i], main[2 * i + 1]
            h, c = hs[i], cs[i]
            f = [_sigmoid(xp[j] * w[j] + bias[j]) for j in range(b)]
            ig = [_sigmoid(h[j] * w[b + j] + bias[b + j]) for j in range(b)]
            o = [_sigmoid(xp[j] * w[2 * b + j] + bias[2 * b + j]) for j in range(b)]
            ch = [math.tanh(h[j] * w[3 * b + j] + bias[3 * b + j]) for j in range(b)]
            cs[i] = [c[j] * f[j] + ig[j] * ch[j] for j in range(b)]
            hs[i] = [o[j] * math.tanh(cs[i][j]) for j in range(b)]
            xp = hs[i]
        y = [xp[j] * extra[1][j] + extra[2][j] for j in range(b)]
        lse = math.log(sum(math.exp(v) for v in y))
        total += sum(seq[t + 1][j] * (y[j] - lse) for j in range(b))
    return -total / ((len(seq) - 1) * b)


def lstm_gradient(main, extra, state, seq):
    """Back-propagation through time, written out by hand."""
    L, b, c_len = len(main) // 2, len(extra[0]), len(seq)
    hs = [list(state[2 * i]) for i in range(L)]
    cs = [list(state[2 * i + 1]) for i in range(L)]
    tape = []
    for t in range(c_len - 1):
        xp = [seq[t][j] * extra[0][j] for j in range(b)]
        layers = []
        for i in range(L):
            w, bias = main[2 * i], main[2 * i + 1]
            h, c = hs[i], cs[i]
            f = [_sigmoid(xp[j] * w[j] + bias[j]) for j in range(b)]
            ig = [_sigmoid(h[j] * w[b + j] + bias[b + j]) for j in range(b)]
            o = [_sigmoid(xp[j] * w[2 * b + j] + bias[2 * b + j]) for j in range(b)]
            ch = [math.tanh(h[j] * w[3 * b + j] + bias[3 * b + j]) for j in range(b)]
            cn = [c[j] * f[j] + ig[j] * ch[j] for j in range(b)]
            th = [math.tanh(v) for v in cn]
            layers.append((xp, h, c, f, ig, o, ch, th))
            cs[i] = cn
            hs[i] = [o[j] * th[j] for j in range(b)]
            xp = hs[i]
        y = [xp[j] * extra[1][j] + extra[2][j] for j in range(b)]
        tape.append((layers, xp, y))
    s = -1.0 / ((c_len - 1) * b)
    gw = [[0.0] * (4 * b) for _ in range(2 * L)]
    ge = [[0.0] * b for _ in range(3)]
    dh = [[0.0] * b for _ in range(L)]
    dc = [[0.0] * b for _ in range(L)]
    for t in reversed(range(c_len - 1)):
        layers, top, y = tape[t]
        g = seq[t + 1]
        z = sum(math.exp(v) for v in y)
        sg = sum(g)
        dy = [s * (g[j] - math.exp(y[j]) / z * sg) for j in range(b)]
        dxp = [0.0] * b
        for j in range(b):
            ge[1][j] += dy[j] * top[j]
            ge[2][j] += dy[j]
            dxp[j] = dy[j] * extra[1][j]
        for i in reversed(range(L)):
            xp, h, c, f, ig, o, ch, th = layers[i]
            w = main[2 * i]
            gwi, gbi = gw[2 * i], gw[2 * i + 1]
            nxp = [0.0] * b
            for j in range(b):
                dhn = dxp[j] + dh[i][j]
                dcn = dc[i][j] + dhn * o[j] * (1 - th[j] * th[j])
                dzf = dcn * c[j] * f[j] * (1 - f[j])
                dzi = dcn * ch[j] * ig[j] * (1 - ig[j])
                dzo = dhn * th[j] * o[j] * (1 - o[j])
                dzc = dcn * ig[j] * (1 - ch[j] * ch[j])
                for gate, dz, inp in ((0, dzf, xp[j]), (1, dzi, h[j]), (2, dzo, xp[j]), (3, dzc, h[j])):
                    gwi[gate * b + j] += dz * inp
                    gbi[gate * b + j] += dz
                nxp[j] = dzf * w[j] + dzo * w[2 * b + j]
                dh[i][j] = dzi * w[b + j] + dzc * w[3 * b + j]
                dc[i][j] = dcn * f[j]
            dxp = nxp
        for j in range(b):
            ge[0][j] += dxp[j] * seq[t][j]
    return [gw, ge]



# The k-means cost (kmeans_ad.fut).
def kmeans_ad_objective(points, centres):
    return sum(min(sum((a - b) ** 2 for a, b in zip(p, c)) for c in centres) for p in points)


def kmeans_ad_gradient(points, centres):
    g = [[0.0] * len(centres[0]) for _ in centres]
    for p in points:
        ds = [sum((a - b) ** 2 for a, b in zip(p, c)) for c in centres]
        k = ds.index(min(ds))
        for j in range(len(p)):
            g[k][j] -= 2 * (p[j] - centres[k][j])
    return [g]



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



def compare(expected, got, exact, rel=TOL):
    if len(expected) != len(got):
        return "expected %d values, got %d" % (len(expected), len(got))
    for i, (e, g) in enumerate(zip(expected, got)):
        if shape(e) != shape(g):
            return "value %d: shape %s, expected %s" % (i, shape(g), shape(e))
        fe, fg = list(flat(e)), list(flat(g))
        tol = 0 if exact else max(rel, rel * max(abs(x) for x in fe))
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
    # Later cases, for the blocked and vectorised references' edges (their
    # own seed, so that the cases above stay as they were).
    rng = random.Random(8)
    # A row across two 64-pixel groups.
    out.append(("mandelbrot", [("i64", None, 70), ("i64", None, 3), ("i32", None, 255)], None, True))
    # One column, one row, two by two.
    for (r, c, it) in [(5, 1, 3), (1, 6, 4), (2, 2, 5)]:
        t = rows(fvec(rng, r * c, 320, 340), c)
        p = rows(fvec(rng, r * c, 0, 7e-4), c)
        out.append(("hotspot", [("i32", None, it), ("f32", [r, c], t), ("f32", [r, c], p)], hotspot(it, t, p), False))
    # Across a panel of B (2048 columns), a panel's depth (256) and a block of A (128 rows).
    for (n, m, p) in [(3, 5, 2100), (37, 300, 20), (150, 7, 33)]:
        a = rows(fvec(rng, n * m, -1, 1), m)
        b = rows(fvec(rng, m * p, -1, 1), p)
        out.append(("matmul", [("f32", [n, m], a), ("f32", [m, p], b)], matmul(a, b), False))
    # More centres than one vector pass (16), not a multiple of it.
    for (n, d, k) in [(300, 3, 40)]:
        pts = rows(fvec(rng, n * d, 0, 1), d)
        out.append(("kmeans", [("i64", None, k), ("f32", [n, d], pts)], kmeans(k, pts), False))
    # Negative values (Futhark's mod), k = 1, a large k.
    for (n, k, lo) in [(1000, 7, -2**31), (20, 1, 0), (3000, 100000, 0)]:
        xs = [rng.randrange(lo, 2**31) for _ in range(n)]
        out.append(("histogram", [("i64", None, k), ("i32", [n], xs)], histogram(k, xs), True))
    # Split between the OpenMP build's threads at an odd point.
    xs = [rng.randrange(-2**31, 2**31) for _ in range(300007)]
    out.append(("scan", [("i32", [300007], xs)], scan(xs), True))
    # Row sums: multiples of 1/8 (exact in any order), random rows not a
    # multiple of the vector width, one column, empty rows.
    a = [[rng.randrange(-32, 33) / 8 for _ in range(4)] for _ in range(3)]
    out.append(("rowsums", [("f32", [3, 4], a)], rowsums(a), False))
    for (n, m) in [(2, 11), (5, 37), (40, 1000), (7, 1)]:
        a = rows(fvec(rng, n * m, -1, 1), m)
        out.append(("rowsums", [("f32", [n, m], a)], rowsums(a), False))
    out.append(("rowsums", [("f32", [2, 0], [[], []])], [[0.0, 0.0]], False))
    return out



def encode(inputs):
    from array import array
    buf = io.BytesIO()
    for elem, dims, v in inputs:
        if dims is None:
            futdata.write_scalar(buf, elem, v)
        else:
            futdata.write_array(buf, elem, dims, array({"f32": "f", "i32": "i", "f64": "d", "i64": "q"}[elem], flat(v)))
    return buf.getvalue()


# The AD benchmarks: objective, gradient, which inputs are differentiated,
# the finite-difference step and tolerance (relative to 1 + |gradient|),
# and the tolerance for the references' results (relative to the largest
# magnitude of each value; f64 for gmm and lstm, f32 for kmeans_ad).
AD = {
    "gmm": (gmm_objective, gmm_gradient, [0, 1, 2], 1e-5, 1e-6, 1e-10),
    "lstm": (lstm_objective, lstm_gradient, [0, 1], 1e-5, 1e-7, 1e-10),
    "kmeans_ad": (kmeans_ad_objective, kmeans_ad_gradient, [1], 1e-4, 1e-6, 1e-5),
}


def dec(rng, n, lo, hi, digits=2):
    """n numbers uniform in [lo, hi), rounded to a few decimals (short literals)."""
    return [round(rng.uniform(lo, hi), digits) for _ in range(n)]


def gmm_inputs(rng, d, k, n, gamma, m, digits=2):
    t = d * (d + 1) // 2
    return [("f64", [k], dec(rng, k, -1, 1, digits)),
            ("f64", [k, d], rows(dec(rng, k * d, -1, 1, digits), d)),
            ("f64", [k, t], rows(dec(rng, k * t, -0.5, 0.5, digits), t)),
            ("f64", [n, d], rows(dec(rng, n * d, -1, 1, digits), d)),
            ("f64", None, gamma), ("i64", None, m)]


def lstm_inputs(rng, l, b, c, w=1, s=1, digits=2):
    """Parameters in [-w, w], the initial state in [-1, 1], the sequence in [0, s]."""
    return [("f64", [2 * l, 4 * b], rows(dec(rng, 8 * l * b, -w, w, digits), 4 * b)),
            ("f64", [3, b], rows(dec(rng, 3 * b, -w, w, digits), b)),
            ("f64", [2 * l, b], rows(dec(rng, 2 * l * b, -1, 1, digits), b)),
            ("f64", [c, b], rows(dec(rng, c * b, 0, s, digits), b))]


def kmeans_ad_inputs(rng, n, k, d, spread):
    """Points near random centres, in multiples of 1/32 (exact in f32). The
    nearest centre of every point is nearer than the second nearest by a
    margin, so that small steps (finite differences) do not change it."""
    while True:
        centres = [[rng.randrange(-spread, spread) / 8 for _ in range(d)] for _ in range(k)]
        points = [[x + rng.randrange(-8, 9) / 32 for x in centres[rng.randrange(k)]] for _ in range(n)]
        ok = True
        for p in points:
            ds = sorted(sum((a - b) ** 2 for a, b in zip(p, c)) for c in centres)
            ok = ok and ds[1] - ds[0] > 0.5
        if ok:
            return [("f32", [n, d], points), ("f32", [k, d], centres)]


def ad_cases():
    """(benchmark, inputs, small?): small cases are the .fut files' test cases.
    Each case has its own seed, so that changing one leaves the others."""
    R = random.Random
    return [
        ("gmm", gmm_inputs(R(11), 3, 2, 5, 1.5, 2), True),
        ("gmm", gmm_inputs(R(12), 11, 3, 37, 0.8, 0, digits=6), False),
        ("gmm", gmm_inputs(R(13), 17, 2, 70, 1.2, 3, digits=6), False),
        # Larger weights and targets than the data sets', so that more of the
        # small case's gradient is above the test's absolute tolerance (0.002).
        ("lstm", lstm_inputs(R(21), 2, 3, 4, w=2, s=8), True),
        ("lstm", lstm_inputs(R(22), 4, 14, 12, digits=6), False),
        ("kmeans_ad", kmeans_ad_inputs(R(31), 6, 3, 2, 16), True),
        ("kmeans_ad", kmeans_ad_inputs(R(32), 301, 9, 13, 16), False),
        # More centres than one sliver of the reference's tiles (32).
        ("kmeans_ad", kmeans_ad_inputs(R(33), 130, 40, 5, 32), False),
    ]


def unflat(xs, like):
    """The numbers xs (an iterator) in the shape of `like`."""
    if isinstance(like, list):
        return [unflat(xs, x) for x in like]
    return next(xs)


def fd_check(bench, vals, grads, rng, sample=None):
    """The hand-derived gradient against central finite differences of the
    objective: every element, or `sample` random elements of each input."""
    objective, _, wrt, h, tol, _ = AD[bench]
    for g, which in zip(grads, wrt):
        xs, gs = list(flat(vals[which])), list(flat(g))
        positions = range(len(xs))
        if sample is not None and len(xs) > sample:
            positions = rng.sample(positions, sample)
        for j in positions:
            args = []
            for delta in (h, -h):
                ys = list(xs)
                ys[j] += delta
                a = list(vals)
                a[which] = unflat(iter(ys), vals[which])
                args.append(a)
            fd = (objective(*args[0]) - objective(*args[1])) / (2 * h)
            if abs(fd - gs[j]) > tol * (1 + abs(gs[j])):
                return "input %d element %d: gradient %r, finite differences %r" % (which, j, gs[j], fd)
    return None


def to_text(v, elem):
    if elem == "f64":
        if isinstance(v, list):
            return "[" + ", ".join(to_text(x, elem) for x in v) + "]"
        return repr(float(v))
    return futdata.to_text(v, elem)


def check_ad(print_tests):
    failures = 0
    rng = random.Random(5)
    for bench, inputs, small in ad_cases():
        objective, gradient, wrt, _, _, rel = AD[bench]
        vals = [v for _, _, v in inputs]
        obj = objective(*vals)
        grads = gradient(*vals)
        err = fd_check(bench, vals, grads, rng, None if small else 25)
        label = "%s %s" % (bench, " ".join("x".join(map(str, d)) for _, d, _ in inputs if d))
        print("%-48s %s" % (label + " Python vs FD", "ok" if err is None else "FAILED: " + err))
        failures += err is not None
        data = encode(inputs)
        elems = [e for e, _, _ in inputs]
        for entry, expected in (("objective", [obj]), ("gradient", grads)):
            for suffix, path in variants(bench, entry):
                got, binary = run_ref(path, data, ["-e", entry])
                err = compare(expected, got, False, rel)
                if err is None and binary[:1] != b"b":
                    err = "binary output does not start with 'b'"
                tag = "%s %s%s" % (label, entry, suffix)
                print("%-48s %s" % (tag, "ok" if err is None else "FAILED: " + err))
                failures += err is not None
        if print_tests and small:
            ins = " ".join(to_text(v, e) for e, _, v in inputs)
            out_elem = elems[wrt[0]]
            print("  input { %s }" % ins)
            print("  objective output { %s }" % to_text(obj, out_elem))
            print("  gradient output { %s }" % " ".join(to_text(g, out_elem) for g in grads))
    return failures


def variants(bench, entry="main"):
    """(label suffix, executable) of every build that computes `entry` of `bench`."""
    out = [("", refs.exe(bench)), (" omp", refs.exe(bench, True))]
    blas = refs.BLAS_OF.get(bench)
    if blas and blas[1] == entry and refs.have_blas():
        out += [(" blas", refs.exe(blas[0])), (" blas omp", refs.exe(blas[0], True))]
    return out


def run_ref(path, data, args=()):
    """The reference's text output and its binary output (as bytes)."""
    env = dict(os.environ, OMP_NUM_THREADS="2")
    res = subprocess.run([path] + list(args) + ["-t", "/dev/null"], input=data, capture_output=True, check=True,
                         env=env)
    resb = subprocess.run([path] + list(args) + ["-b", "-r", "2", "-t", "/dev/null"], input=data,
                          capture_output=True, check=True, env=env)
    return futdata.parse_text(res.stdout.decode()), resb.stdout


def expected_text(expected, elem):
    """The expected values in Futhark's text format (f32 rounded)."""
    def f(v):
        return [f(x) for x in v] if isinstance(v, list) else f32(v) if elem == "f32" else v
    return " ".join(futdata.to_text(f(v), elem) for v in expected)


def main(argv):
    refs.build()
    if not refs.have_blas():
        print("OpenBLAS not found: the BLAS references are not checked (Debian: apt-get install libopenblas-dev)")
    failures = 0
    for bench, inputs, expected, exact in ([] if "--only-ad" in argv else cases()):
        if bench == "mandelbrot":
            expected = mandelbrot(*(v for _, _, v in inputs))
        data = encode(inputs)
        label = "%s %s" % (bench, " ".join(str(d) if d else str(v) for _, d, v in inputs))
        for suffix, path in variants(bench):
            got, binary = run_ref(path, data)
            err = compare(expected, got, exact)
            # The binary output must be a binary value.
            if err is None and binary[:1] != b"b":
                err = "binary output does not start with 'b'"
            print("%-48s %s" % (label[:40] + suffix, "ok" if err is None else "FAILED: " + err))
            failures += err is not None
        ins = " ".join(futdata.to_text(v, e) for e, _, v in inputs)
        out_elem = "i32" if bench in ("mandelbrot", "histogram", "scan") else "f32"
        outs = expected_text(expected, out_elem)
        if "--print-tests" in argv and len(ins) + len(outs) < 1500:
            print("  input { %s }\n  output { %s }" % (ins, outs))
    failures += check_ad("--print-tests" in argv)
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
