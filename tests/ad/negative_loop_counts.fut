-- A `for` loop whose count is negative runs no iteration, in reverse mode
-- too (its checkpoints had the count as their length). x^(k+1) for k ≥ 0,
-- x for k < 0; (x1 - x0)(x2 - x1) has gradient [-(x2 - x1), (x2 - x1) -
-- (x1 - x0), x1 - x0], and 1 (no factor) for no elements.

-- ==
-- entry: rev fwd
-- input { 3.0 -2i64 } output { 1.0 }
-- input { 3.0 2i64 } output { 27.0 }
entry rev (x: f64) (k: i64) : f64 = vjp (\x -> loop acc = x for _i < k do acc * x) x 1.0
entry fwd (x: f64) (k: i64) : f64 = jvp (\x -> loop acc = x for _i < k do acc * x) x 1.0
-- ==
-- entry: rev32
-- input { 3.0 -2i32 } output { 1.0 }
-- input { 3.0 2i32 } output { 27.0 }
entry rev32 (x: f64) (k: i32) : f64 = vjp (\x -> loop acc = x for _i < k do acc * x) x 1.0
-- ==
-- entry: grad
-- input { empty([0]f64) } output { empty([0]f64) }
-- input { [1.0, 3.0, 4.0] } output { [-1.0, -1.0, 2.0] }
def pd [n] (xs: [n]f64) : f64 = loop acc = 1f64 for i < n - 1 do acc * (xs[i+1] - xs[i])
entry grad [n] (xs: [n]f64) : [n]f64 = vjp pd xs 1.0

-- An inner loop whose count comes from outside the outer loop (its
-- tapes' length is computed before the outer loop, which tapes them):
-- x·x^(2k) for k ≥ 0, derivative (2k + 1) x^(2k); x for k < 0.
-- ==
-- entry: nested
-- input { 3.0 -1i64 } output { 1.0 }
-- input { 2.0 1i64 } output { 12.0 }
entry nested (x: f64) (k: i64) : f64 =
  vjp (\x -> loop acc = x for _j < 2 do loop acc for _i < k do acc * x) x 1.0
