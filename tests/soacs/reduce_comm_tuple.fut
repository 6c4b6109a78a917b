-- reduce_comm on pairs (count, sum), used to compute a mean.
-- ==
-- input { [1.0, 2.0, 3.0, 6.0] } output { 4i64 12.0 3.0 }
def main (xs: []f64) =
  let (c, s) = reduce_comm (\(c1, s1) (c2, s2) -> (c1 + c2, s1 + s2)) (0i64, 0.0)
                           (map (\x -> (1, x)) xs)
  in (c, s, s / f64.i64 c)
