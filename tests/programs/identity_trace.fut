-- Build an identity matrix with tabulate_2d, compute a trace, and check whether a matrix
-- is symmetric by comparing it with its transpose (array equality).
-- ==
-- input { [[1, 2], [2, 5]] } output { 6 true [[1, 0], [0, 1]] }
-- input { [[1, 2, 0], [3, 5, 0], [0, 0, -1]] } output { 5 false [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }
def main [n] (a: [n][n]i32) =
  let trace = i32.sum (map (\i -> a[i, i]) (iota n))
  let ident = tabulate_2d n n (\i j -> if i == j then 1 else 0)
  in (trace, a == transpose a, ident)
