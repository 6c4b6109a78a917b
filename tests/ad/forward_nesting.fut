-- Nested forward mode and mixed values.

-- The second derivative of x⁴ is 12x² (48 at 2), the third 24x (72 at 3):
-- jvp of a function that itself calls jvp.
-- ==
-- entry: second
-- gradcheck input { 2.0 } output { 48.0 }
-- gradcheck input { 3.0 } output { 108.0 }
def quartic (x: f64) = x * x * x * x
entry second (x: f64) : f64 = jvp (\x -> jvp quartic x 1) x 1

-- ==
-- entry: third
-- gradcheck input { 3.0 } output { 72.0 }
entry third (x: f64) : f64 = jvp (\x -> jvp (\x -> jvp quartic x 1) x 1) x 1

-- A derivative per element, inside a map: d/dx (x·sin x) = sin x + x cos x.
-- ==
-- entry: per_element
-- gradcheck input { [0.0, 1.0, 2.0] }
-- output { [0.0, 1.3817732906760363, 0.0770037537313969] }
entry per_element [n] (xs: [n]f64) : [n]f64 = map (\x -> jvp (\x -> x * f64.sin x) x 1) xs

-- A branch: d/dx (if x > 0 then x² else -x) is 2x above 0 and -1 below.
-- ==
-- entry: branch
-- gradcheck input { 3.0 } output { 6.0 }
-- gradcheck input { -2.0 } output { -1.0 }
entry branch (x: f64) : f64 = jvp (\x -> if x > 0 then x * x else -x) x 1

-- Tuples, records and integers: as in Futhark, integers are
-- differentiated too, with integer tangents (the seed's k is 7):
-- d(a·f64 k) = da·3 + 2·f64 dk = 17, d(k + 1) = 7, a comparison has the
-- tangent false, and d(f64 (k·2)) = f64 (dk·2) = 14.
-- ==
-- entry: mixed
-- gradcheck input { 2.0 3i32 } output { 17.0 7i32 false 14.0 }
entry mixed (x: f64) (n: i32) : (f64, i32, bool, f64) =
  let f (r: {a: f64, k: i32}) = (r.a * f64.i32 r.k, r.k + 1, r.a > 1, f64.i32 (r.k * 2))
  let (y, k, b, z) = jvp f {a = x, k = n} {a = 1, k = 7}
  in (y, k, b, z)

-- Integer arithmetic, as Futhark differentiates it: x³ at 3 has the
-- tangent 27, x / 2 has 1 quot 2 = 0 (Futhark's integer division rule),
-- x % 5 passes the tangent, and !b on booleans has the tangent b && db.
-- ==
-- entry: integers
-- gradcheck input { 3i32 true } output { 27i32 0i32 1i32 true }
-- gradcheck input { 3i32 false } output { 27i32 0i32 1i32 false }
entry integers (x: i32) (b: bool) : (i32, i32, i32, bool) =
  (jvp (\x -> x * x * x) x 1, jvp (\x -> x / 2) x 1, jvp (\x -> x % 5) x 1, jvp (\b -> !b) b true)

-- An in-place update of a copy: the tangent of the updated element is
-- the tangent of the new value, the others keep theirs.
-- ==
-- entry: updated
-- gradcheck input { [1.0, 2.0, 3.0] 5.0 } output { [10.0, 1.0, 1.0] }
entry updated [n] (xs: [n]f64) (x: f64) : [n]f64 =
  jvp (\(xs, x) -> copy xs with [0] = x * x) (xs, x) (replicate n 1, 1)

-- A function holding a jvp, inlined into the function of another jvp:
-- the mixed derivative of x²·b, d/db (d/dx x²·b) = 2x, is 6 at x = 3.
-- ==
-- entry: cross
-- gradcheck input { 3.0 5.0 } output { 6.0 }
def d_dx (x: f64) (b: f64) = jvp (\x -> x * x * b) x 1
entry cross (x: f64) (b: f64) : f64 = jvp (d_dx x) b 1
