-- scan with the non-commutative digit-concatenation operator.
-- ==
-- input { [1i64, 2i64, 3i64, 0i64] } output { [1i64, 12i64, 123i64, 1230i64] }
def main (ds: []i64) =
  let (vs, _) = unzip (scan (\(v1, p1) (v2, p2) -> (v1 * p2 + v2, p1 * p2)) (0, 1)
                            (map (\d -> (d, 10i64)) ds))
  in vs
