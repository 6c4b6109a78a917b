-- Maximum subarray sum (empty subarray allowed) computed in parallel with reduce over
-- 4-tuples (best, best prefix, best suffix, total) -- an associative, non-commutative operator.
-- ==
-- input { [-2, 1, -3, 4, -1, 2, 1, -5, 4] } output { 6 }
-- input { [-1, -2] } output { 0 }
-- input { [5, -1, 5] } output { 9 }
-- input { empty([0]i32) } output { 0 }
def combine (m1: i32, p1: i32, s1: i32, t1: i32) (m2: i32, p2: i32, s2: i32, t2: i32) =
  (i32.max (i32.max m1 m2) (s1 + p2), i32.max p1 (t1 + p2), i32.max s2 (s1 + t2), t1 + t2)

def main (xs: []i32) =
  let (m, _, _, _) =
    reduce combine (0, 0, 0, 0) (map (\x -> let y = i32.max x 0 in (y, y, y, x)) xs)
  in m
