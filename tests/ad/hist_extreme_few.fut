-- `reduce_by_index` with `min` or `max` of a few values (a constant
-- number): reverse mode saves only the destination's elements at the
-- indices and compares the values pairwise, so that in a loop each
-- iteration's return sweep costs the values', not the destination's size.
--
-- `ties`: min into [1, 5, 2, 0] at [0, 1, 1, 3, 7] of [3, 4, 4, -1, 9],
-- cotangent [1, 2, 3, 4]. Bucket 0 keeps the destination's 1 (its
-- adjoint 1, value 0 gets 0); bucket 1 becomes 4, first reached by value 1
-- (adjoint 2; value 2, equal, gets 0; the destination's 5 gets 0); bucket
-- 2 is untouched (3); bucket 3 becomes -1 from value 3 (4); index 7 is out
-- of range (0). With the destination's 4 in bucket 1 instead, the
-- destination keeps it, ties going to the destination first: its adjoint
-- 2, the values' 0.
-- ==
-- entry: ties
-- input { [1.0, 5.0, 2.0, 0.0] [3.0, 4.0, 4.0, -1.0, 9.0] }
-- output { [1.0, 0.0, 3.0, 0.0] [0.0, 2.0, 0.0, 4.0, 0.0] }
-- input { [1.0, 4.0, 2.0, 0.0] [3.0, 4.0, 4.0, -1.0, 9.0] }
-- output { [1.0, 2.0, 3.0, 0.0] [0.0, 0.0, 0.0, 4.0, 0.0] }

entry ties (dest: [4]f64) (vs: [5]f64) : ([4]f64, [5]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf [0, 1, 1, 3, 7] v) (dest, vs) [1, 2, 3, 4]

-- `in_loop`: ys = xs, then for i < n - 1, max into ys at [i + 1, 3i mod n]
-- of [ys[i] / 2, xs[i] + 1], and the sum of ys. With xs = [1, 3, 2]: i = 0
-- keeps 3 in bucket 1 and puts 2 = x₀ + 1 in bucket 0; i = 1 keeps 2 in
-- bucket 2 and puts 4 = x₁ + 1 in bucket 0: ys = [x₁ + 1, x₁, x₂], whose
-- sum has the gradient [0, 2, 1].
-- ==
-- entry: in_loop
-- input { [1.0, 3.0, 2.0] }
-- output { [0.0, 2.0, 1.0] }

def loop_max [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i < n - 1 do
             reduce_by_index ys f64.max f64.lowest [i + 1, (i * 3) % n] [ys[i] * 0.5, xs[i] + 1]
  in f64.sum ys

entry in_loop [n] (xs: [n]f64) : [n]f64 = vjp loop_max xs 1

-- The objective at eight points (its value computed in Python), its
-- gradient checked by finite differences.
-- ==
-- entry: loop_objective
-- gradcheck input { [0.3, -1.2, 2.5, 0.7, -0.4, 1.9, 0.05, -2.2] }
-- output { 15.675 }

entry loop_objective [n] (xs: [n]f64) : f64 = loop_max xs
