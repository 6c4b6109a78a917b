-- The length of a concatenation is checked for overflow: two arrays of 2^62
-- empty rows concatenate to 2^63 rows, which does not fit in an i64.
-- ==
-- input { 3i64 } output { 6i64 }
-- input { 4611686018427387904i64 } error: overflow
def main (n: i64) : i64 =
  let a : [n][0]i32 = unflatten ([] :> [n*0]i32)
  in length (a ++ a)
