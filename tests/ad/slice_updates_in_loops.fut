-- Loops whose carried array is updated by a range (a slice) of the same
-- length in every iteration: reverse mode logs the range's start and the
-- elements it overwrote per iteration instead of saving the whole array
-- (the simplifier finds the length: `(i + 2) - i` is `2`,
-- `(j + 1) * b - j * b` is `b`).
--
-- window, by hand: with xs = [a, b, c], iteration 0 sets ys[0:2] to
-- [ab, b + 1], iteration 1 sets ys[1:3] to [(b + 1)c, c + 1]; Σys =
-- ab + (b + 1)c + c + 1, whose gradient at [2, 3, 5] is [b, a + c, b + 2]
-- = [3, 7, 5] (and Σys = 32).
-- ==
-- entry: window
-- input { [2.0, 3.0, 5.0] } output { [3.0, 7.0, 5.0] }
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry window [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i < n - 1 do
                         ys with [i:i + 2] = [ys[i] * ys[i + 1], ys[i + 1] + 1]
              in f64.sum ys)
      xs 1

-- The objective of `window`, for its gradient check and value.
-- ==
-- entry: window_value
-- input { [2.0, 3.0, 5.0] } output { 32.0 }
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry window_value [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i < n - 1 do
             ys with [i:i + 2] = [ys[i] * ys[i + 1], ys[i + 1] + 1]
  in f64.sum ys

-- Blocks of b elements, each squared plus the last element of the block
-- before it: the length (j + 1)·b - j·b is b.
--
-- By hand, b = 2, xs = [p, q, r, s]: block 0 becomes [p² + 0, q² + 0]
-- (no block before), block 1 [r² + q², s² + q²]; Σ = p² + 3q² + r² + s²,
-- whose gradient at [1, 2, 3, 4] is [2, 12, 6, 8].
-- ==
-- entry: blocks
-- input { 2i64 [1.0, 2.0, 3.0, 4.0] } output { [2.0, 12.0, 6.0, 8.0] }
entry blocks [n] (b: i64) (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for j < n / b do
                         let prev = if j == 0 then 0 else ys[j * b - 1]
                         in ys with [j * b:(j + 1) * b] = map (\y -> y * y + prev) ys[j * b:(j + 1) * b]
              in f64.sum ys)
      xs 1

-- Rows of a matrix updated two at a time, each pair from the pair
-- before it.
-- ==
-- entry: row_pairs
-- gradcheck input { [[0.5, 0.3], [-0.7, 1.1], [0.9, -0.4], [0.2, 0.6]] }
entry row_pairs [n][m] (xss: [n][m]f64) : f64 =
  let yss = loop yss = copy xss for i < n - 2 do
              yss with [i + 1:i + 3] = map2 (\r s -> map2 (\a c -> f64.sin a * c) r s) yss[i:i + 2] yss[i + 1:i + 3]
  in f64.sum (map f64.sum yss)

-- A range whose length changes with the iteration (a prefix): saved
-- whole per iteration, as before; the gradient is still right.
-- ==
-- entry: prefixes
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry prefixes [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i < n do
             ys with [0:i] = map (\y -> y * 0.5 + ys[i]) ys[0:i]
  in f64.sum (map (\y -> y * y) ys)

-- A strided range, every other element from i: its length (n - i + 1) / 2
-- is not known to be the same in every iteration, so the array is saved
-- whole per iteration; the gradient is still right.
-- ==
-- entry: strided
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9, 0.2] }
entry strided [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i < 2 do
             ys with [i:n:2] = map (\y -> f64.cos y * 2) ys[i:n:2]
  in f64.sum (map (\y -> y * y) ys)
