-- A size parameter that only a linear size determines: `[2 * k]` for an
-- argument of `2 * (n / 3)` elements gives k = n / 3 at run time (both
-- when the call is inlined and when it stays a call). For 7 elements,
-- take 4 → pairs (1,2) (3,4); for 9, take 6 → (1,2) (3,4) (5,6).
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] } output { [3, 7] 2i64 }
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9] } output { [3, 7, 11] 3i64 }
-- input { [1, 2] } output { empty([0]i32) 0i64 }

def pairs [k] (ps: [2 * k]i32) : [k]i32 = map (\i -> ps[2 * i] + ps[2 * i + 1]) (iota k)

-- `[k + 1]`: k is one less than the argument's length, here n / 3.
def count [k] (ps: [k + 1]i32) : i64 = k

entry main [n] (p: [n]i32) : ([]i32, i64) =
  let q = take (2 * (n / 3)) p
  in (pairs q, count (take (n / 3 + 1) p))
