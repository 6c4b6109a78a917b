-- Reverse mode where the forward sweep overwrites an array that the
-- return sweep of an earlier statement reads: a loop updating in place an
-- array a map read before it, or the result of an update whose return
-- sweep undoes it on that array; a `while` loop whose condition reads the
-- array it updates; a function (split into forward and reverse halves)
-- that updates in place through a view. Each used to leave IR that reads
-- an array after it was consumed (an internal error under the verifier,
-- so `ogham c` wrote no executable). Expected values worked by hand.

-- l = 2a, s = Σ l² = 4Σa², and the loop multiplies each element of l by s
-- once: f = s·Σl = 8·(Σa²)(Σa), so ∂f/∂a_k = 8·(2a_k·Σa + Σa²). With
-- a = [0.5, 0.25, 2], Σa = 2.75 and Σa² = 4.3125.
-- ==
-- entry: map_then_loop
-- input { [0.5, 0.25, 2.0] } output { [56.5, 45.5, 122.5] }
-- gradcheck input { [0.5, -0.25, 2.0, 1.5] }
def map_then_loop_f [n] (a: [n]f64) : f64 =
  let l = map (* 2) a
  let s = f64.sum (map (\x -> x * x) l)
  let r = loop l for i < n do l with [i] = l[i] * s
  in f64.sum r

entry map_then_loop [n] (a: [n]f64) : [n]f64 = vjp map_then_loop_f a 1

-- f = 3·a₀ + Σ_{i≥1} 2a_i·a_i: the update's return sweep restores the
-- array the loop went on to update.
-- ==
-- entry: update_then_loop
-- input { [0.5, 0.25, 2.0] } output { [3.0, 1.0, 8.0] }
def update_then_loop_f [n] (a: [n]f64) : f64 =
  let l = map (* 2) a
  let l2 = l with [0] = 3
  let r = loop l2 for i < n do l2 with [i] = l2[i] * a[i]
  in f64.sum r

entry update_then_loop [n] (a: [n]f64) : [n]f64 = vjp update_then_loop_f a 1

-- A Cholesky-shaped nest: an update of the loop's array, then an inner
-- loop updating the rest of it in place.
-- ==
-- entry: nested_updates
-- gradcheck input { [0.5, 0.25, 2.0] }
-- gradcheck input { [1.0, -0.5, 0.75, 0.1] }
entry nested_updates [n] (a: [n]f64) : f64 =
  let l = loop l = copy a for j < n do
            let s = f64.sum (map (\x -> x * x) l)
            let l = l with [j] = a[j] * s
            in loop l for i in (j + 1)..<n do l with [i] = a[i] * l[i]
  in f64.sum l

-- ys becomes the prefix products x₀, x₀x₁, x₀x₁x₂, … while they stay
-- below 100: with [1, 2, 0.5, 4], all four, and the adjoint of x_k is the
-- sum of the products containing it divided by x_k. With [10, 20, …] the
-- loop stops after one step (ys[1] = 200), leaving [10, 200, 0.5, 4, 3].
-- ==
-- entry: while_reads_its_array
-- input { [1.0, 2.0, 0.5, 4.0] } output { [8.0, 3.5, 10.0, 1.0] }
-- input { [10.0, 20.0, 0.5, 4.0, 3.0] } output { [21.0, 10.0, 1.0, 1.0, 1.0] }
def prefix_products [n] (xs: [n]f64) : [n]f64 =
  let (ys, _) = loop (ys, i) = (copy xs, 0) while i < n - 1 && ys[i] < 100 do
                  (ys with [i + 1] = ys[i] * ys[i + 1], i + 1)
  in ys

entry while_reads_its_array [n] (xs: [n]f64) : [n]f64 = vjp prefix_products xs (replicate n 1)

-- The third derivative of √a (Newton's iteration to convergence) is
-- (3/8)·a^(-5/2): 3/256 at a = 4.
-- ==
-- entry: third_order_while
-- input { 4.0 } output { 0.01171875 }
def newton_sqrt (a: f64) : f64 = loop x = 1.0 while f64.abs (x * x - a) > 1e-12 do (x + a / x) / 2

entry third_order_while (a: f64) : f64 = vjp (\a -> vjp (\a -> vjp newton_sqrt a 1) a 1) a 1

-- Functions differentiated both ways (so reverse mode splits them into
-- halves) that update through a view. reversed_update: with
-- xs = [3, 2, 0.5, 4] the result is [x₀x₂², x₃²x₂², x₁², x₀²], and the
-- cotangent [0, 1, 2, 3] gives [3·2x₀, 2·2x₁, 2x₂x₃², 2x₃x₂²].
-- ==
-- entry: reversed_update
-- input { [3.0, 2.0, 0.5, 4.0] } output { [18.0, 8.0, 16.0, 2.0] }
def reversed_update_f [n] (xs: [n]f64) : [n]f64 =
  let ys = reverse (map (\x -> x * x) xs)
  in ys with [0:2] = [xs[0] * ys[1], ys[0] * ys[1]]

entry reversed_update [n] (xs: [n]f64) : [n]f64 = vjp reversed_update_f xs (map f64.i64 (iota n))
entry reversed_update_jvp [n] (xs: [n]f64) : [n]f64 = jvp reversed_update_f xs xs

-- ys = 2xs with ys[5], ys[3], ys[1] = xs[1], xs[2], xs[3]: the adjoint of
-- x_k is 2k where ys keeps 2x_k (k = 0, 2, 4, 6), plus the cotangent of
-- the element it was written to (x₁ → 5, x₂ → 3, x₃ → 1); x₅'s element is
-- overwritten, so its adjoint is 0.
-- ==
-- entry: negative_stride_update
-- input { [1.0, 2.0, 0.5, 4.0, -1.0, 3.0, 0.7] } output { [0.0, 5.0, 7.0, 1.0, 8.0, 0.0, 12.0] }
def negative_stride_f [n] (xs: [n]f64) : [n]f64 =
  let ys = map (* 2) xs
  in ys with [5:0:-2] = xs[1:4]

entry negative_stride_update [n] (xs: [n]f64) : [n]f64 = vjp negative_stride_f xs (map f64.i64 (iota n))
entry negative_stride_jvp [n] (xs: [n]f64) : [n]f64 = jvp negative_stride_f xs (replicate n 1)

-- A column of two rows replaced: with b = a², the result is b except
-- [0,0] = a₀₀·a₁₀² and [1,0] = a₁₀²·a₁₁².
-- ==
-- entry: column_update
-- gradcheck input { [[3.0, 2.0], [0.5, 3.0], [0.1, 0.2]] }
entry column_update [n][m] (a: [n][m]f64) : [n][m]f64 =
  let b = map (map (\x -> x * x)) a
  in b with [0:2, 0] = [a[0, 0] * b[1, 0], b[1, 0] * b[1, 1]]

entry column_update_vjp [n][m] (a: [n][m]f64) : [n][m]f64 = vjp column_update a (map (map (+ 1)) a)

-- Reverse of reverse through a loop that builds a stack of matrices: the
-- gradient of f is 2·rel[p][q]·Σ_c b[q][c], and its vjp with the cotangent
-- rel is 2·rel[p][q]·Σ_c b[q][c] again (linear in rel).
-- ==
-- entry: second_order_matrices
-- input { [[[1.0, 2.0], [0.5, 1.0]], [[0.3, -1.0], [2.0, 0.1]]] [[[1.0, 0.2], [0.5, 0.7]], [[0.3, 1.0], [-2.0, 0.1]]] }
-- output { [[[2.4, 4.8], [1.2, 2.4]], [[0.78, 3.8], [5.2, -0.38]]] }
def matmul [k] (a: [k][k]f64) (b: [k][k]f64) : *[k][k]f64 =
  map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a

def stacked [n][k] (rel: [n][k][k]f64) (b: [n][k][k]f64) : f64 =
  let a = loop a = replicate n (replicate k (replicate k 0f64)) for i < n do
            a with [i] = map (map (\x -> x * x)) rel[i]
  in f64.sum (map (\m -> f64.sum (flatten m)) (map2 matmul a b))

entry second_order_matrices [n][k] (rel: [n][k][k]f64) (b: [n][k][k]f64) : [n][k][k]f64 =
  vjp (\r -> vjp (\r -> stacked r b) r 1) rel rel

-- A scatter's return sweep restores its destination in place unless the
-- scope returns that memory: here a loop's result, which starts as the
-- scatter's result (and would be it after no iteration). ys = x, then
-- squared twice: x⁴, whose derivative is 4x³.
-- ==
-- entry: scatter_then_loop
-- input { [1.0, 2.0] } output { [4.0, 32.0] }
def scatter_then_loop_f [n] (xs: [n]f64) : [n]f64 =
  let ys = scatter (replicate n 0) (iota n) xs
  in loop ys for _s < 2 do scatter (copy ys) (iota n) (map (\y -> y * y) ys)

entry scatter_then_loop [n] (xs: [n]f64) : [n]f64 = vjp scatter_then_loop_f xs (replicate n 1)
