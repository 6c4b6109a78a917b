-- Reverse mode through in-place updates, prefix sums and histograms.

-- scan (+): x̄[i] is the sum of ȳ from i on.
-- ==
-- entry: prefix_sums
-- gradcheck input { [5.0, 6.0, 7.0, 8.0] [1.0, 2.0, 3.0, 4.0] } output { [10.0, 9.0, 7.0, 4.0] }
entry prefix_sums [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 = vjp (\xs -> scan (+) 0 xs) xs ys

-- hist (+): each value gets its bucket's adjoint, a value whose index is
-- out of range (3, -1) gets 0; the destination gets the buckets' adjoints.
-- ==
-- entry: buckets
-- gradcheck input { [0i64, 1i64, 0i64, 2i64, 3i64, -1i64] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] [10.0, 20.0, 30.0] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 1.0, 3.0, 0.0, 0.0] [1.0, 2.0, 3.0] }
entry buckets [n][m] (is: [n]i64) (vs: [n]f64) (d: [m]f64) (hs: [m]f64) : ([n]f64, [m]f64) =
  let (dvs, dd) = vjp (\(vs, d) -> reduce_by_index (copy d) (+) 0 is vs) (vs, d) hs
  in (dvs, dd)

-- Rows summed with map2 (+): every row gets the result's adjoint.
-- ==
-- entry: row_sum
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [1.0, 2.0] } output { [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]] }
entry row_sum [n][m] (xss: [n][m]f64) (y: [m]f64) : [n][m]f64 =
  vjp (\xss -> reduce (map2 (+)) (replicate m 0) xss) xss y

-- An in-place update: the overwritten element gets no adjoint, the new
-- value gets its element's: d/dx of x² at 5 times ȳ[1] = 2 is 20.
-- ==
-- entry: updated
-- gradcheck input { [1.0, 2.0, 3.0] 5.0 [1.0, 2.0, 3.0] } output { [1.0, 0.0, 3.0] 20.0 }
entry updated [n] (xs: [n]f64) (x: f64) (ys: [n]f64) : ([n]f64, f64) =
  vjp (\(xs, x) -> copy xs with [1] = x * x) (xs, x) ys

-- Updates in a loop: xs[i+1] = xs[i]² on [1,2,3,4,5] leaves x0^(2^i) at
-- i, so ȳ = e4 gives ∂(x0^16)/∂x0 = 16 at x0 = 1 and ȳ = ones gives
-- 1+2+4+8+16 = 31; the other elements are overwritten.
-- ==
-- entry: squares
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [0.0, 0.0, 0.0, 0.0, 1.0] } output { [16.0, 0.0, 0.0, 0.0, 0.0] }
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 1.0, 1.0, 1.0, 1.0] } output { [31.0, 0.0, 0.0, 0.0, 0.0] }
entry squares [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  vjp (\xs -> loop xs = copy xs for i < n - 1 do xs with [i + 1] = xs[i] * xs[i]) xs ys

-- A branch that updates an array it did not create: with b the first
-- element is overwritten by a constant and gets no adjoint.
-- ==
-- entry: branch_update
-- gradcheck input { true [1.0, 2.0, 3.0] [1.0, 2.0, 3.0] } output { [0.0, 2.0, 3.0] }
-- gradcheck input { false [1.0, 2.0, 3.0] [1.0, 2.0, 3.0] } output { [1.0, 2.0, 3.0] }
entry branch_update [n] (b: bool) (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  vjp (\xs -> let zs = copy xs in if b then zs with [0] = 0 else zs) xs ys

-- scatter (notes §10.9): xs = [10,20,30,40], is = [2,0], vs = [7,8] gives
-- [8,20,7,40]; with ȳ = [1,2,3,4] the values get ȳ at their indices,
-- [3,1], and xs keeps ȳ where it was not overwritten, [0,2,0,4]. An
-- index out of range (9) writes nothing and gets 0.
-- ==
-- entry: scattered
-- gradcheck input { [10.0, 20.0, 30.0, 40.0] [2i64, 0i64] [7.0, 8.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.0, 2.0, 0.0, 4.0] [3.0, 1.0] }
-- gradcheck input { [10.0, 20.0, 30.0, 40.0] [2i64, 9i64] [7.0, 8.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [1.0, 2.0, 0.0, 4.0] [3.0, 0.0] }
entry scattered [n][k] (xs: [n]f64) (is: [k]i64) (vs: [k]f64) (ys: [n]f64) : ([n]f64, [k]f64) =
  vjp (\(xs, vs) -> scatter (copy xs) is vs) (xs, vs) ys

-- scan with other operators (notes §10.8): scan (*) on [1,2,3,4,5] has
-- the lower-triangular Jacobian with rows [1], [2,1], [6,3,2],
-- [24,12,8,6], [120,60,40,30,24]; the adjoint for all-ones ȳ is its
-- column sums [153,76,50,36,24], for ȳ = [0.3,-1,2,0.5,1.5] it is
-- [202.3,101,68,48,36]. The operator x·y + x + y (neutral 0) on
-- [0.5,-0.2,1.3,0.7] with ȳ = [1,2,3,4] gives [20.632,36.81,11.76,11.04].
-- ==
-- entry: prefix_products
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 1.0, 1.0, 1.0, 1.0] } output { [153.0, 76.0, 50.0, 36.0, 24.0] }
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [0.3, -1.0, 2.0, 0.5, 1.5] } output { [202.3, 101.0, 68.0, 48.0, 36.0] }
entry prefix_products [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 = vjp (\xs -> scan (*) 1 xs) xs ys

-- ==
-- entry: prefix_nonlinear
-- gradcheck input { [0.5, -0.2, 1.3, 0.7] [1.0, 2.0, 3.0, 4.0] } output { [20.632, 36.81, 11.76, 11.04] }
entry prefix_nonlinear [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  vjp (\xs -> scan (\x y -> x * y + x + y) 0 xs) xs ys
