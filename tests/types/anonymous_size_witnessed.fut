-- Anonymous sizes that an array in the type witnesses, or that are the
-- result of a function type, are fine in a type abbreviation.
-- ==
-- input { 3i64 } output { 3i64 2i64 }
type^ sized = ([]i64, i64 -> []i64)
type^ mk = i64 -> []i64

def main (n: i64) =
  let (xs, _): sized = (iota n, \k -> iota k)
  let f: mk = \k -> iota (k - 1)
  in (length xs, length (f n))
