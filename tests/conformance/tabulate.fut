-- tabulate and tabulate_2d, with scan on tuples.
-- ==
-- input { 3i64 } output { [0i64, 1i64, 4i64] [[0i64, 1i64, 2i64], [1i64, 2i64, 3i64], [2i64, 3i64, 4i64]] [1i64, 2i64, 6i64] [0i64, 1i64, 5i64] }
def main (n: i64) =
  let sq = tabulate n (\i -> i * i)
  let t2 = tabulate_2d n n (\i j -> i + j)
  let (prods, sums) = unzip (scan (\(a, b) (c, d) -> (a * c, b + d)) (1, 0) (map (\i -> (i + 1, i * i)) (iota n)))
  in (sq, t2, prods, sums)
