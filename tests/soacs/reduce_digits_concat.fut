-- reduce with a non-commutative "concatenation" of decimal digits:
-- (v1, p1) op (v2, p2) = (v1 * p2 + v2, p1 * p2).
-- ==
-- input { [1i64, 2i64, 3i64] } output { 123i64 1000i64 }
-- input { [0i64, 4i64, 0i64, 5i64] } output { 405i64 10000i64 }
-- input { [9i64, 8i64, 7i64, 6i64, 5i64, 4i64, 3i64, 2i64, 1i64] } output { 987654321i64 1000000000i64 }
-- input { empty([0]i64) } output { 0i64 1i64 }
def main (ds: []i64) =
  reduce (\(v1, p1) (v2, p2) -> (v1 * p2 + v2, p1 * p2)) (0, 1)
         (map (\d -> (d, 10)) ds)
