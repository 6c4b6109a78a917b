-- A coercion to a type abbreviation whose size is non-polynomial in its
-- size argument (`half [m]` is `[m/2]i64`) checks that size at run time:
-- the abbreviation's expression is computed with `n` bound to `m`.
-- ==
-- input { 10i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 11i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 12i64 } error: cannot match shape
-- input { 3i64 } error: cannot match shape

type half [n] = [n/2]i64

def main (m: i64) = iota 5 :> half [m]
