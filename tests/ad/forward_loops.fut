-- Forward mode through loops: a loop carries the tangent of each
-- floating-point parameter. The power loop's derivative in x is
-- y·x^(y-1): 48 at (y, x) = (3, 4) and 59049 at (9, 3) (seed 004 notes
-- §10.5), by a `for` loop, a `while` loop and a recursive function.
-- ==
-- entry: pow_for pow_while pow_rec_jvp
-- gradcheck input { 3i64 4.0 } output { 48.0 }
-- gradcheck input { 9i64 3.0 } output { 59049.0 }
-- gradcheck input { 0i64 3.0 } output { 0.0 }

def pow_loop (y: i64) (x: f64) : f64 = loop acc = 1 for _i < y do acc * x

entry pow_for (y: i64) (x: f64) : f64 = jvp (pow_loop y) x 1

entry pow_while (y: i64) (x: f64) : f64 =
  jvp (\x -> (loop (acc, i) = (1, 0) while i < y do (acc * x, i + 1)).0) x 1

def pow_rec (y: i64) (x: f64) : f64 = if y == 0 then 1 else x * pow_rec (y - 1) x

entry pow_rec_jvp (y: i64) (x: f64) : f64 = jvp (pow_rec y) x 1

-- A map inside a loop: after y rounds accs = xs^y elementwise, so the
-- Jacobian is diag(y·xs^(y-1)), diag(3, 12, 27) for y = 3, xs = [1, 2, 3]
-- (notes §10.5); its columns, and the sum of them.
-- ==
-- entry: map_in_loop
-- gradcheck input { 3i64 [1.0, 2.0, 3.0] [1.0, 0.0, 0.0] } output { [3.0, 0.0, 0.0] }
-- gradcheck input { 3i64 [1.0, 2.0, 3.0] [0.0, 0.0, 1.0] } output { [0.0, 0.0, 27.0] }
-- gradcheck input { 3i64 [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] } output { [3.0, 12.0, 27.0] }
entry map_in_loop [n] (y: i64) (xs: [n]f64) (dxs: [n]f64) : [n]f64 =
  jvp (\xs -> loop accs = replicate n 1 for _i < y do map2 (*) accs xs) xs dxs

-- In-place updates in a loop: xs[i+1] = xs[i]² for i < 4, on
-- [1, 2, 3, 4, 5]. Only the first element survives, so the tangent in
-- the direction of x0 is [1, 2, 4, 8, 16] (the derivatives of x0^(2^i))
-- and every other direction gives zeros (notes §10.5). The seed array is
-- not consumed: it is used again after the jvp.
-- ==
-- entry: squares
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 0.0, 0.0, 0.0, 0.0] }
-- output { [1.0, 2.0, 4.0, 8.0, 16.0] [1.0, 0.0, 0.0, 0.0, 0.0] }
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [0.0, 1.0, 1.0, 1.0, 1.0] }
-- output { [0.0, 0.0, 0.0, 0.0, 0.0] [0.0, 1.0, 1.0, 1.0, 1.0] }
entry squares [n] (xs: [n]f64) (dxs: [n]f64) : ([n]f64, [n]f64) =
  let f (xs: [n]f64) = loop xs = copy xs for i < n - 1 do xs with [i + 1] = xs[i] * xs[i]
  in (jvp f xs dxs, dxs)

-- jvp of a loop whose array parameter's size is a parameter of the loop
-- (a function of [n][2] arrays called in a loop: the size 2 becomes one):
-- two gradient steps p ← ∇conf p, with ∇ of Σ r₀²r₁ being (2r₀r₁, r₀²),
-- take a row (a, b) to (4a³b, 4a²b²), homogeneous of degree 4, so the
-- derivative along p₀ itself is 4 times the value (Euler).
-- ==
-- entry: loop_sized_tangent
-- input { [[1.0, 2.0], [0.5, -1.0]] } output { [[32.0, 64.0], [-2.0, 4.0]] }
def conf [n] (p: [n][2]f64) : f64 = f64.sum (map (\r -> r[0] * r[0] * r[1]) p)

def two_steps [n] (p0: [n][2]f64) : [n][2]f64 = loop p = p0 for _i < 2 do vjp conf p 1

entry loop_sized_tangent [n] (p0: [n][2]f64) : [n][2]f64 = jvp two_steps p0 p0
