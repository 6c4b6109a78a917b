-- The reverse rule of `min`/`max` over the results of a `map`: only the
-- map's function at the first element equal to the result contributes
-- (k-means' nearest centre), to the rows of the map's inputs at that
-- element and to the function's free variables; other uses of the mapped
-- array keep their own adjoints. Expected values by hand: the squared
-- distance |p - c|^2 has gradient -2(p - c) in c.

-- ==
-- entry: closest_centre
-- input { [1.0, 2.0] [[0.0, 0.0], [1.0, 1.0], [3.0, 2.0]] }
-- output { [[0.0, 0.0], [0.0, -2.0], [0.0, 0.0]] }
-- input { [1.0, 2.0] [[1.0, 1.0], [1.0, 3.0], [0.0, 0.0]] }
-- output { [[0.0, -2.0], [0.0, 0.0], [0.0, 0.0]] }
-- input { [1.0, 2.0] empty([0][2]f64) }
-- output { empty([0][2]f64) }
def dist [d] (p: [d]f64) (c: [d]f64) : f64 = f64.sum (map2 (\x y -> (x - y) * (x - y)) p c)

entry closest_centre [d][k] (p: [d]f64) (cs: [k][d]f64) : [k][d]f64 =
  vjp (\cs -> f64.minimum (map (dist p) cs)) cs 1

-- ==
-- entry: sum_of_minima
-- input { [[1.0, 2.0], [3.0, 3.0]] [[0.0, 0.0], [1.0, 1.0], [3.0, 2.0]] }
-- output { [[0.0, 0.0], [0.0, -2.0], [0.0, -2.0]] }
def cost [n][k][d] (ps: [n][d]f64) (cs: [k][d]f64) : f64 =
  f64.sum (map (\p -> f64.minimum (map (dist p) cs)) ps)

entry sum_of_minima [n][k][d] (ps: [n][d]f64) (cs: [k][d]f64) : [k][d]f64 = vjp (cost ps) cs 1

-- ==
-- entry: cost_smooth
-- gradcheck input { [[0.3, -1.2, 0.8], [2.0, 0.1, -0.4], [-0.7, 0.9, 1.5]] [[0.0, 0.0, 0.0], [1.0, -1.0, 0.5], [-0.5, 1.0, 1.0]] }
entry cost_smooth [n][k][d] (ps: [n][d]f64) (cs: [k][d]f64) : f64 = cost ps cs

-- ==
-- entry: max_scaled
-- input { 2.0 [1.0, -3.0, 2.0] } output { 2.0 [0.0, 0.0, 2.0] }
-- input { -1.0 [1.0, -3.0, 2.0] } output { -3.0 [0.0, -1.0, 0.0] }
entry max_scaled [n] (a: f64) (xs: [n]f64) : (f64, [n]f64) =
  vjp (\(a, xs) -> f64.maximum (map (\x -> a * x) xs)) (a, xs) 1

-- ==
-- entry: other_result
-- input { [2.0, -1.0, 3.0] } output { [3.0, 1.0, 3.0] }
entry other_result [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = map (\x -> (x * x, 3 * x)) xs
              in f64.minimum (map (.0) ys) + f64.sum (map (.1) ys)) xs 1
