"""futhark-data against ogham executables: futhark_data writes the inputs
(binary and text), the executable reads them, and futhark_data reads the
executable's binary and text output."""

import io
import subprocess
import sys

import futhark_data
import numpy as np

exe = sys.argv[1]

# futhark-data 1.0.3 writes text arrays with np.product, which NumPy 2
# removed; text input is then only tested for scalars.
text_arrays = hasattr(np, "product")


def run(entry, values, binary_in=True, binary_out=True):
    # futhark_data.dump writes text to text streams and binary to binary ones.
    buf = io.BytesIO() if binary_in else io.StringIO()
    for v in values:
        futhark_data.dump(v, buf, binary=binary_in)
        if not binary_in:
            buf.write("\n")
    data = buf.getvalue()
    args = [exe, "-e", entry] + (["-b"] if binary_out else [])
    p = subprocess.run(args, input=data if binary_in else data.encode(), capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"{entry} failed: {p.stderr.decode()}")
    return list(futhark_data.load(io.BytesIO(p.stdout)))


xs = np.array([1.5, 2.25, -0.75], dtype=np.float32)
for bin_in in (True, False) if text_arrays else (True,):
    for bin_out in (True, False):
        (s,) = run("sum_f32", [xs], bin_in, bin_out)
        assert s.dtype == np.float32 and s == np.float32(3.0), s

m = np.arange(6, dtype=np.float64).reshape(2, 3)
(r,) = run("scale", [np.float64(2.0), m])
assert r.dtype == np.float64 and r.shape == (2, 3) and np.array_equal(r, m * 2), r
# A scalar in text, an array in binary, in one input stream.
text = io.StringIO()
futhark_data.dump(np.float64(2.0), text, binary=False)
buf = io.BytesIO()
futhark_data.dump(m, buf, binary=True)
data = text.getvalue().encode() + b" " + buf.getvalue()
p = subprocess.run([exe, "-e", "scale", "-b"], input=data, capture_output=True, check=True)
(r,) = futhark_data.load(io.BytesIO(p.stdout))
assert r.dtype == np.float64 and r.shape == (2, 3) and np.array_equal(r, m * 2), r

# Several results come out as consecutive values.
total, doubled, n = run("stats", [np.array([1.0, 2.0, 3.0])])
assert total == 6.0 and np.array_equal(doubled, [2.0, 4.0, 6.0]) and n == 3 and n.dtype == np.int64

u = np.array([[0, 255], [7, 128]], dtype=np.uint8)
for bin_in in (True, False) if text_arrays else (True,):
    (w,) = run("widen", [u], bin_in, True)
    assert w.dtype == np.int16 and np.array_equal(w, u.astype(np.int16)), w

(b,) = run("flags", [np.array([False, True])])
assert b == True  # noqa: E712

# Empty arrays, binary both ways, and as text when futhark-data can read it.
for bin_out in (True, False) if text_arrays else (True,):
    (e,) = run("widen", [np.zeros((0, 3), dtype=np.uint8)], True, bin_out)
    assert e.shape == (0, 3) and e.dtype == np.int16, (e.shape, e.dtype)
print("futhark-data: ok")
