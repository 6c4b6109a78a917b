-- The special reverse rule of `reduce_by_index` with `min` or `max` on
-- floats (rev/hist_extreme.rs): each bucket's adjoint goes to the one
-- element its result came from; ties go to the destination first, then
-- to the first occurrence; out-of-range indices get nothing.

-- dest [0, 5, 1], values [2, 3, 2, 1, 9] at [0, 1, 0, 2, 7]: bucket 0 is
-- 2, first from value 0 (value 2 ties); bucket 1 keeps the destination's
-- 5; bucket 2 ties the destination's 1 with value 3, and the destination
-- wins; index 7 is out of range. Weights [1, 2, 3]: d dest = [0, 2, 3],
-- d values = [1, 0, 0, 0, 0].
def hmax (dest: [3]f64, vs: [5]f64) : f64 =
  let h = reduce_by_index (copy dest) f64.max (-f64.inf) [0, 1, 0, 2, 7] vs
  in f64.sum (map2 (*) h [1, 2, 3])

-- ==
-- entry: max_ties
-- input { [0.0, 5.0, 1.0] [2.0, 3.0, 2.0, 1.0, 9.0] }
-- output { [0.0, 2.0, 3.0] [1.0, 0.0, 0.0, 0.0, 0.0] }
entry max_ties (dest: [3]f64) (vs: [5]f64) = vjp hmax (dest, vs) 1

-- dest [4, -1], values [3, 2, -5, -9] at [1, 0, 0, -1]: bucket 0 is -5
-- (value 2), bucket 1 keeps the destination's -1 (value 0's 3 is larger),
-- index -1 is out of range. Weights [1, 10].
def hmin (dest: [2]f32, vs: [4]f32) : f32 =
  let h = reduce_by_index (copy dest) f32.min f32.inf [1, 0, 0, -1] vs
  in f32.sum (map2 (*) h [1, 10])

-- ==
-- entry: min_f32
-- input { [4.0f32, -1.0f32] [3.0f32, 2.0f32, -5.0f32, -9.0f32] }
-- output { [0.0f32, 10.0f32] [0.0f32, 0.0f32, 1.0f32, 0.0f32] }
entry min_f32 (dest: [2]f32) (vs: [4]f32) = vjp hmin (dest, vs) 1

-- Against finite differences (no ties), and differentiated twice.
def peaks [n] (vs: [n]f64) : f64 =
  let is = map (\i -> (i * 7) % 3) (iota n)
  let h = reduce_by_index (replicate 3 (-100)) f64.max (-f64.inf) is (map (\v -> v * v * v) vs)
  let l = reduce_by_index (replicate 3 100) f64.min f64.inf is (map f64.sin vs)
  in f64.sum (map2 (\a b -> a * a + a * b) h l)

-- ==
-- entry: peaks_fd peaks_gradient
-- gradcheck input { [0.3, -1.2, 2.1, 0.75, -0.4, 1.6, 0.05] }
-- gradcheck input { [1.0, 2.0, 3.0, -4.0] }
entry peaks_fd [n] (vs: [n]f64) = peaks vs
entry peaks_gradient [n] (vs: [n]f64) = vjp peaks vs 1
