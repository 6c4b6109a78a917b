-- The vector forms: `jmp` computes the primal once and the tangents of
-- all directions beside it (loops carry k-arrays of tangents); `mjp`
-- runs the forward sweep once. Expected values by hand.

-- The Jacobian of (x, y) ↦ (x·y, sin x) at (2, 3): [[3, 2], [cos 2, 0]],
-- by columns (jmp, one direction per input) and by rows (mjp).
-- ==
-- entry: jacobian_columns
-- input { 2.0 3.0 }
-- output { [3.0, 2.0] [-0.4161468365471424, 0.0] }
-- ==
-- entry: jacobian_rows
-- input { 2.0 3.0 }
-- output { [3.0, -0.4161468365471424] [2.0, 0.0] }
def f (x: f64, y: f64) = (x * y, f64.sin x)
entry jacobian_columns (x: f64) (y: f64) =
  let (a, b) = unzip (jmp f (x, y) [(1, 0), (0, 1)])
  in (a, b)
entry jacobian_rows (x: f64) (y: f64) =
  let (a, b) = unzip (mjp f (x, y) [(1, 0), (0, 1)])
  in (a, b)

-- A loop: x^y computed by repeated multiplication, d/dx = y·x^(y-1);
-- jmp2 also returns the primal. Directions 1, 2 and 0.
-- ==
-- entry: pow_directions
-- input { 3i64 4.0 [1.0, 2.0, 0.0] }
-- output { 64.0 [48.0, 96.0, 0.0] }
def pow (y: i64) (x: f64) = loop acc = 1 for _i < y do acc * x
entry pow_directions (y: i64) (x: f64) (ds: []f64) = jmp2 (pow y) x ds

-- Arrays, a branch and a map: xs ↦ map (\x -> if x > 0 then x² else -x) xs,
-- whose Jacobian is diagonal: 2x or -1. The rows of the identity give
-- its columns.
-- ==
-- entry: diagonal
-- input { [1.0, -2.0, 3.0] }
-- output { [[2.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 6.0]] }
def g [n] (xs: [n]f64) = map (\x -> if x > 0 then x * x else -x) xs
entry diagonal [n] (xs: [n]f64) = jmp g xs (tabulate n (\i -> tabulate n (\j -> f64.bool (i == j))))

-- In-place updates of the carried array (the squares chain, each
-- element the square of the one before): the tangents of the updated
-- array go through the loop beside the primal. For xs = [2, 0, 0] and
-- direction e₀: [1, 4, 32] (d/dx x² = 2x = 4, d/dx x⁴ = 4x³ = 32).
-- ==
-- entry: chain_directions
-- input { [2.0, 0.0, 0.0] }
-- output { [[1.0, 4.0, 32.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]] }
def chain [n] (xs: [n]f64) = loop xs = copy xs for i < n - 1 do xs with [i + 1] = xs[i] * xs[i]
entry chain_directions [n] (xs: [n]f64) = jmp chain xs (tabulate n (\i -> tabulate n (\j -> f64.bool (i == j))))

-- The determinant of a flow's Jacobian (by mjp), differentiated again: in
-- reverse, a loop's adjoint adds an array of zeros into an accumulator
-- (once an internal error).
-- ==
-- entry: flow_det
-- gradcheck input { [0.5, -0.3] }
def flow (x: [2]f64) : [2]f64 =
  loop x for _i < 2 do map2 (\a b -> a + 0.1 * b) x [x[1], x[0] * x[0] * x[1]]

entry flow_det (x: [2]f64) : f64 =
  let j = mjp flow x [[1, 0], [0, 1]]
  in j[0, 0] * j[1, 1] - j[0, 1] * j[1, 0]
