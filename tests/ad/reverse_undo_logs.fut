-- Reverse mode of loops whose array parameters change only by in-place
-- updates: the forward loop logs what each update overwrote instead of
-- saving the whole array per iteration, and the reverse loop undoes the
-- updates (rev/undo.rs). Expected values are worked out by hand in the
-- comments; the gradchecks compare with finite differences.

-- a = [x0, x1, x2]; t = 0: a[0] = x0 x1; t = 1: a[1] = x1 x2;
-- t = 2: a[2] = x2 a[0] = x0 x1 x2. sum = x0 x1 + x1 x2 + x0 x1 x2,
-- at [1, 2, 3]: 14; gradient [x1 + x1 x2, x0 + x2 + x0 x2, x1 + x0 x1]
-- = [8, 7, 4].
def point_updates [n] (xs: [n]f64) : f64 =
  let a = loop a = copy xs for t < 3 do
            a with [t % n] = a[t % n] * a[(t + 1) % n]
  in f64.sum a

-- ==
-- entry: point_updates_grad
-- input { [1.0, 2.0, 3.0] } output { 14.0 [8.0, 7.0, 4.0] }
entry point_updates_grad (xs: []f64) = (point_updates xs, vjp point_updates xs 1)

-- ==
-- entry: point_updates_fd
-- gradcheck input { [1.0, 2.0, 3.0] }
-- gradcheck input { [0.5, -1.5, 2.0, 0.25, 1.25] }
entry point_updates_fd = point_updates

-- Two updates of one element per iteration: undone last first. Each
-- iteration t doubles a[t], then multiplies it by a[0] (itself for t = 0):
-- a0 = 4 x0², a1 = 2 x1 · 4 x0² = 8 x0² x1. sum at [1, 3]: 4 + 24 = 28;
-- gradient [8 x0 + 16 x0 x1, 8 x0²] = [56, 8].
def twice [n] (xs: [n]f64) : f64 =
  let a = loop a = copy xs for t < n do
            let a = a with [t] = a[t] * 2
            in a with [t] = a[t] * a[0]
  in f64.sum a

-- ==
-- entry: twice_grad
-- input { [1.0, 3.0] } output { 28.0 [56.0, 8.0] }
entry twice_grad (xs: []f64) = (twice xs, vjp twice xs 1)

-- ==
-- entry: twice_fd
-- gradcheck input { [1.0, 3.0] }
-- gradcheck input { [0.7, -1.1, 0.4] }
entry twice_fd = twice

-- An array the loop carries but never changes, read every iteration:
-- sum of a[i]² over i < n, gradient 2 x.
def carried [n] (xs: [n]f64) : f64 =
  let (_, s) = loop (a, s) = (xs, 0) for i < n do (a, s + a[i] * a[i])
  in s

-- ==
-- entry: carried_grad
-- input { [1.0, -2.0, 0.5] } output { [2.0, -4.0, 1.0] }
entry carried_grad (xs: []f64) = vjp carried xs 1

-- Rows: m = [[a, b], [c, d]]; row0 += row1, row1 += row0, row0 += row1
-- gives [[2a + 3c, 2b + 3d], [a + 2c, b + 2d]]; the sum of squares at
-- [[1, 2], [3, 4]] is 121 + 256 + 49 + 100 = 526, its gradient
-- [[4·11 + 2·7, 4·16 + 2·10], [6·11 + 4·7, 6·16 + 4·10]].
def rows [r][c] (m0: [r][c]f64) : f64 =
  let m = loop m = copy m0 for i < 3 do
            m with [i % r] = map2 (+) m[i % r] m[(i + 1) % r]
  in f64.sum (map (\row -> f64.sum (map (\x -> x * x) row)) m)

-- ==
-- entry: rows_grad
-- input { [[1.0, 2.0], [3.0, 4.0]] } output { 526.0 [[58.0, 84.0], [94.0, 136.0]] }
entry rows_grad (m: [][]f64) = (rows m, vjp rows m 1)

-- ==
-- entry: rows_fd
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0]] }
-- gradcheck input { [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [1.0, 1.0, -2.0]] }
entry rows_fd = rows

-- A `while` loop: a[i+1] += a[i]² until the end. At [1, 2, 3]:
-- a = [1, 3, 12], sum 16; f = x0 + x1 + x0² + x2 + (x1 + x0²)², gradient
-- [1 + 2 x0 + 4 x0 (x1 + x0²), 1 + 2 (x1 + x0²), 1] = [15, 7, 1].
def prefix [n] (xs: [n]f64) : f64 =
  let (a, _) = loop (a, i) = (copy xs, 0) while i < n - 1 do
                 (a with [i + 1] = a[i + 1] + a[i] * a[i], i + 1)
  in f64.sum a

-- ==
-- entry: prefix_grad
-- input { [1.0, 2.0, 3.0] } output { 16.0 [15.0, 7.0, 1.0] }
entry prefix_grad (xs: []f64) = (prefix xs, vjp prefix xs 1)

-- ==
-- entry: prefix_fd
-- gradcheck input { [0.3, -0.2, 0.5, 0.1] }
entry prefix_fd = prefix

-- Logged loops inside a map, inside an outer loop (which tapes it and
-- so saves it whole), one after another on the same array, and with the
-- result updated after the loop.
def inner_of_map [k][n] (xss: [k][n]f64) : f64 =
  f64.sum (map point_updates xss)

def in_outer [n] (xs: [n]f64) : f64 =
  let (_, s) = loop (a, s) = (copy xs, 0) for j < 2 do
                 let b = loop b = copy a for t < n do b with [t] = b[t] * b[(t + 1) % n] + f64.i64 j
                 in (b, s + f64.sum b)
  in s

def chained [n] (xs: [n]f64) : f64 =
  let a = loop a = copy xs for t < n do a with [t] = f64.sin (a[t] * a[(t + 1) % n])
  let a = loop a for t < n do a with [n - 1 - t] = a[n - 1 - t] * a[t]
  let a = a with [0] = a[0] * a[1]
  in f64.sum (map (\x -> x * x) a)

-- ==
-- entry: inner_of_map_fd
-- gradcheck input { [[1.0, 2.0, 3.0], [0.5, -0.5, 1.5]] }
entry inner_of_map_fd = inner_of_map

-- ==
-- entry: in_outer_fd chained_fd
-- gradcheck input { [0.4, 0.9, -0.6] }
-- gradcheck input { [1.1, -0.3, 0.8, 0.5] }
entry in_outer_fd = in_outer
entry chained_fd = chained

-- Second order: the gradient of the recurrence, differentiated again.
-- ==
-- entry: prefix_gradient
-- gradcheck input { [0.3, -0.2, 0.5, 0.1] }
entry prefix_gradient (xs: []f64) = vjp prefix xs 1

-- Two logged arrays updated in turn, each read at the other's index,
-- with a scalar carried beside them; its Hessian-vector product (forward
-- mode over the reverse loop) and a function of its gradient.
def two [n] (xs: [n]f64) : f64 =
  let (a, b, s) = loop (a, b, s) = (copy xs, map (* 2) xs, 0) for t < 2 * n do
    let i = t % n
    let j = (t * 3 + 1) % n
    let a = a with [i] = a[i] * b[j] + s
    let b = b with [j] = f64.sin (a[i] + b[j])
    in (a, b, s + a[j] * 0.1)
  in f64.sum a + f64.sum b + s

-- ==
-- entry: two_fd two_hvp two_gradient_squared
-- gradcheck input { [0.3, -0.7, 1.1, 0.2] }
-- gradcheck input { [1.3, 0.5] }
entry two_fd [n] (xs: [n]f64) = two xs
entry two_hvp [n] (xs: [n]f64) = jvp (\ys -> vjp two ys 1) xs (map (\x -> x * 0.5 + 1) xs)
entry two_gradient_squared [n] (xs: [n]f64) = let g = vjp two xs 1 in map2 (*) g g
