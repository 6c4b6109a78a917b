-- A 1-d stencil iterated in a loop, with clamped boundary indexing.
-- ==
-- input { [0.0, 3.0, 0.0, 3.0] 1 } output { [1.0, 1.0, 2.0, 2.0] }
def step [n] (xs: [n]f64) : [n]f64 =
  map (\i ->
         let l = xs[i64.max 0 (i - 1)]
         let r = xs[i64.min (n - 1) (i + 1)]
         in (l + xs[i] + r) / 3)
      (iota n)
def main (xs: []f64) (k: i32) = loop xs for _i < k do step xs
