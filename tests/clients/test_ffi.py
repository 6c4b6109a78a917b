"""futhark-ffi on an ogham `--library` build (`build_futhark_ffi clients`)."""

import numpy as np
from futhark_ffi import Futhark

import _clients

fut = Futhark(_clients)

xs = np.array([1.5, 2.25, -0.75], dtype=np.float32)
assert fut.sum_f32(xs) == np.float32(3.0)

# A program constant, computed when the context was created, used twice.
assert fut.half(3) == 1.5 and fut.half(1) == 0.5

m = np.arange(6, dtype=np.float64).reshape(2, 3)
r = fut.from_futhark(fut.scale(2.0, m))
assert r.shape == (2, 3) and np.array_equal(r, m * 2), r

u = np.array([[0, 255], [7, 128]], dtype=np.uint8)
w = fut.from_futhark(fut.widen(u))
assert w.dtype == np.int16 and np.array_equal(w, u.astype(np.int16)), w

# A tuple result is one opaque value (Futhark >= 0.26.1). futhark-ffi 0.16
# cannot take it apart itself, so its fields are projected through the C
# API, and the array field goes through from_futhark.
st = fut.stats(np.array([1.0, 2.0, 3.0]))
ffi, lib = fut.ffi, fut.lib
total = ffi.new("double *")
assert lib.futhark_project_opaque_tup3_f64_arr1d_f64_i64_0(fut.ctx, total, st) == 0
arr = ffi.new("struct futhark_f64_1d **")
assert lib.futhark_project_opaque_tup3_f64_arr1d_f64_i64_1(fut.ctx, arr, st) == 0
doubled = fut.from_futhark(ffi.gc(arr[0], lambda a: lib.futhark_free_f64_1d(fut.ctx, a)))
n = ffi.new("int64_t *")
assert lib.futhark_project_opaque_tup3_f64_arr1d_f64_i64_2(fut.ctx, n, st) == 0
assert total[0] == 6.0 and np.array_equal(doubled, [2.0, 4.0, 6.0]) and n[0] == 3

# Opaque records: entry points, store and restore.
p = fut.mk(3.0, 4.0)
assert fut.norm(p) == 5.0
blob = bytes(fut.store_pt(p))
q = fut.restore_pt(blob)
assert fut.norm(q) == 5.0
x = ffi.new("double *")
assert lib.futhark_project_opaque_pt_x(fut.ctx, x, q) == 0 and x[0] == 3.0
made = ffi.new("struct futhark_opaque_pt **")
assert lib.futhark_new_opaque_pt(fut.ctx, made, 6.0, 8.0) == 0
made = ffi.gc(made[0], lambda o: lib.futhark_free_opaque_pt(fut.ctx, o))
assert fut.norm(made) == 10.0

# A run-time error raises, with the program's message, and the context goes on.
try:
    fut.get(np.array([1, 2, 3], dtype=np.int64), 7)
    raise AssertionError("expected an error")
except ValueError as e:
    assert "out of bounds" in str(e).lower() or "index" in str(e).lower(), str(e)
assert fut.get(np.array([1, 2, 3], dtype=np.int64), 1) == 2

# Consumed input.
b = fut.from_futhark(fut.bump(np.array([1.0, 2.0], dtype=np.float32)))
assert np.array_equal(b, [2.0, 2.0]), b

assert "peak" in fut.report()
print("futhark-ffi: ok")
