-- Parallel histograms into few buckets: every chunk of the input fills
-- partial histograms of its own, and a second pass folds them into the
-- destinations bucket by bucket (a kernel: ogham_imp::lower::merge),
-- here for `+` on i32, an argmin over (value, index) pairs with ties
-- broken by the smaller index (two destinations, a branch in the
-- operator), and `\a b -> a + b + c` with a free variable `c` (associative
-- and commutative, with neutral element -c, which also fills the
-- destination). Expected values from a Python loop over the updates.
-- ==
-- input { 100000i64 7i64 3i64 }
-- output { [14286i32, 14286i32, 14286i32, 14285i32, 14286i32, 14285i32, 14286i32] [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32]
--          [0i64, 4036i64, 1009i64, 5045i64, 2018i64, 6054i64, 3027i64] [107140i64, 107144i64, 107146i64, 107137i64, 107142i64, 107132i64, 107138i64] }
-- input { 5i64 3i64 100i64 }
-- output { [2i32, 1i32, 2i32] [0.0f32, 62.0f32, 31.0f32]
--          [0i64, 2i64, 1i64] [103i64, 2i64, 105i64] }
-- input { 200000i64 13i64 -4i64 }
-- output { [15385i32, 15385i32, 15385i32, 15384i32, 15385i32, 15384i32, 15385i32, 15384i32, 15385i32, 15384i32, 15385i32, 15384i32, 15385i32] [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32]
--          [0i64, 9081i64, 5045i64, 1009i64, 10090i64, 6054i64, 2018i64, 11099i64, 7063i64, 3027i64, 12108i64, 8072i64, 4036i64] [7694i64, 7699i64, 7689i64, 7698i64, 7694i64, 7702i64, 7699i64, 7696i64, 7694i64, 7690i64, 7699i64, 7694i64, 7704i64] }
-- input { 0i64 2i64 5i64 }
-- output { [0i32, 0i32] [f32.inf, f32.inf]
--          [9223372036854775807i64, 9223372036854775807i64] [-5i64, -5i64] }

def argmin (a: f32, i: i64) (b: f32, j: i64) : (f32, i64) =
  if a < b || (a == b && i < j) then (a, i) else (b, j)

def main (n: i64) (k: i64) (c: i64) : ([k]i32, [k]f32, [k]i64, [k]i64) =
  let is = map (\i -> (i * 7919) % k) (iota n)
  let counts = hist (+) 0i32 k is (replicate n 1i32)
  let vs = map (\i -> f32.i64 ((i * 31) % 1009)) (iota n)
  let (mins, at) =
    unzip (reduce_by_index (replicate k (f32.inf, i64.highest)) argmin (f32.inf, i64.highest) is (zip vs (iota n)))
  let shifted = hist (\a b -> a + b + c) (-c) k is (map (\i -> i % 10) (iota n))
  in (counts, mins, at, shifted)
