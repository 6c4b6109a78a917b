-- `reduce_by_index` of a few values (a constant number) with operators
-- other than `+`, `min` and `max`: reverse mode saves only the
-- destination's elements at the indices, and its return sweep combines
-- each value's bucket pairwise (the values before it and after it in
-- index order) instead of sorting the values, so that in a loop each
-- iteration's return sweep costs the values', not the destination's size.
--
-- `mul`: (*) into d = [2, 3, 0.5] at [0, 0, 2, 5] of v = [0, 4, 3, 7],
-- cotangent [1, 2, 3]. Bucket 0 is 2·0·4 = 0: ∂/∂d₀ = 0·4 = 0, ∂/∂v₀ =
-- 2·4 = 8, ∂/∂v₁ = 2·0 = 0; bucket 1 is untouched (2); bucket 2 is
-- 0.5·3: ∂/∂d₂ = 3, times 3 is 9, ∂/∂v₂ = 0.5, times 3 is 1.5; index 5 is
-- out of range (0).
-- ==
-- entry: mul
-- input { [2.0, 3.0, 0.5] [0.0, 4.0, 3.0, 7.0] }
-- output { [0.0, 2.0, 9.0] [8.0, 0.0, 1.5, 0.0] }

entry mul (dest: [3]f64) (vs: [4]f64) : ([3]f64, [4]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (*) 1 [0, 0, 2, 5] v) (dest, vs) [1, 2, 3]

-- `mul_loop`: ys = xs, then for i < n - 1, (*) into ys at [i + 1, i]
-- of [1 + ys[i] / 4, 1 - xs[i + 1] / 8], and the sum of ys. With xs =
-- [a, b, c]: i = 0 makes y₁ = b (1 + a/4) and y₀ = a (1 - b/8); i = 1
-- makes y₂ = c (1 + y₁/4) and y₁ = y₁ (1 - c/8). At [2, 4, 8], y₁ = 6 then
-- 0, y₀ = 1, y₂ = 20: the sum 21. Its gradient, by hand: ∂/∂a = (1 -
-- b/8) + (b/4)(1 - c/8) + c·(b/4)/4 = 0.5 + 0 + 2 = 2.5; ∂/∂b = -a/8 +
-- (1 + a/4)(1 - c/8) + c(1 + a/4)/4 = -0.25 + 0 + 3 = 2.75; ∂/∂c = -y₁/8
-- + (1 + y₁/4) = -0.75 + 2.5 = 1.75 (y₁ = 6 before the second update).
-- ==
-- entry: mul_loop
-- input { [2.0, 4.0, 8.0] }
-- output { [2.5, 2.75, 1.75] }

def products [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i < n - 1 do
             reduce_by_index ys (*) 1 [i + 1, i] [1 + ys[i] / 4, 1 - xs[i + 1] / 8]
  in f64.sum ys

entry mul_loop [n] (xs: [n]f64) : [n]f64 = vjp products xs 1

-- The same at eight points, and pairs combined by (*) and `max` in a
-- loop, with repeated indices: the objectives' values computed in
-- Python, their gradients checked by finite differences.
-- ==
-- entry: products_objective
-- gradcheck input { [0.3, -1.2, 2.5, 0.7, -0.4, 1.9, 0.05, -2.2] }
-- output { 1.1725194254150386 }

entry products_objective [n] (xs: [n]f64) : f64 = products xs

-- ==
-- entry: pairs
-- gradcheck input { [0.9, 1.1, -0.7, 1.3, 0.6] [0.2, -0.5, 1.4, 0.3, -1.0] }
-- output { 4.288 }

entry pairs [n] (as: [n]f64) (bs: [n]f64) : f64 =
  let op (a1: f64, b1: f64) (a2: f64, b2: f64) = (a1 * a2, f64.max b1 b2)
  let (ys, zs) = loop (ys, zs) = (copy as, copy bs) for i < n - 1 do
                   let (ys', zs') = unzip (reduce_by_index (zip ys zs) op (1, f64.lowest)
                                             [i + 1, i + 1, i]
                                             [(as[i], zs[i] * 0.5), (1.2, bs[i + 1] - 0.1), (ys[i + 1], as[i])])
                   in (ys', zs')
  in f64.sum ys + f64.sum zs
