-- Loops whose carried array is changed by a `scatter` or a
-- `reduce_by_index` of the same number of values in every iteration:
-- reverse mode logs the index arrays and the elements the statement
-- overwrote per iteration (zero where an index is out of range) and
-- scatters them back in the reverse loop, instead of saving the whole
-- array per iteration.
--
-- one, by hand: y_i = y_(i-1)·x_i, prefix products; with x = [a, b, c],
-- Σy = a + ab + abc, whose gradient at [2, 3, 5] is [1 + b + bc, a + ac,
-- ab] = [19, 12, 6].
-- ==
-- entry: one
-- input { [2.0, 3.0, 5.0] } output { [19.0, 12.0, 6.0] }
entry one [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i in 1..<n do
                         scatter ys [i] [ys[i - 1] * ys[i]]
              in f64.sum ys)
      xs 1

-- The second index is out of range (ignored): y_i = y_(i-1) + x_i,
-- prefix sums [a, a + b, a + b + c]; Σy² has the gradient [2a + 2(a + b)
-- + 2(a + b + c), 2(a + b) + 2(a + b + c), 2(a + b + c)] = [20, 18, 12]
-- at [1, 2, 3].
-- ==
-- entry: out_of_range
-- input { [1.0, 2.0, 3.0] } output { [20.0, 18.0, 12.0] }
entry out_of_range [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i in 1..<n do
                         scatter ys [i, n] [ys[i - 1] + ys[i], 7]
              in f64.sum (map (\y -> y * y) ys))
      xs 1

-- Two values at two places, one of them the place read before.
-- ==
-- entry: two_places
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry two_places [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i in 1..<n do
             scatter ys [i - 1, i] [ys[i] * 0.5, f64.sin ys[i - 1] * ys[i]]
  in f64.sum (map (\y -> y * y) ys)

-- The same index twice, with equal values (scatter's contract).
-- ==
-- entry: duplicates
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry duplicates [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i in 1..<n do
             let v = ys[i - 1] * ys[i] + 1
             in scatter ys [i, i] [v, v]
  in f64.sum (map (\y -> y * y) ys)

-- Rows of a matrix scattered.
-- ==
-- entry: rows
-- gradcheck input { [[0.5, 0.3], [-0.7, 1.1], [0.9, -0.4]] }
entry rows [n][m] (xss: [n][m]f64) : f64 =
  let yss = loop yss = copy xss for i in 1..<n do
              scatter yss [i] [map2 (\a b -> f64.cos a * b) yss[i - 1] yss[i]]
  in f64.sum (map f64.sum (map (map (\y -> y * y)) yss))

-- reduce_by_index (+): y_i += y_(i-1)·y_i. With x = [a, b, c]: y1 =
-- b(1 + a), y2 = c(1 + y1); Σy = a + b + ab + c + bc + abc = 61 at
-- [2, 3, 5], gradient [1 + b + bc, 1 + a + c + ac, 1 + b + ab] =
-- [19, 18, 10].
-- ==
-- entry: hist_add
-- input { [2.0, 3.0, 5.0] } output { [19.0, 18.0, 10.0] }
entry hist_add [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i in 1..<n do
                         reduce_by_index ys (+) 0 [i] [ys[i - 1] * ys[i]]
              in f64.sum ys)
      xs 1

-- The same bucket twice, and an index out of range.
-- ==
-- entry: hist_repeated
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry hist_repeated [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i in 1..<n do
             reduce_by_index ys (+) 0 [i, i, n] [ys[i - 1], ys[i - 1] * ys[i], 1]
  in f64.sum (map (\y -> y * y) ys)

-- Another operator (max, its own rule), into two buckets.
-- ==
-- entry: hist_max
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry hist_max [n] (xs: [n]f64) : f64 =
  let ys = loop ys = copy xs for i in 1..<n do
             reduce_by_index ys f64.max f64.lowest [i, i - 1] [ys[i - 1] * 1.5, ys[i] - 0.25]
  in f64.sum (map (\y -> y * y) ys)
