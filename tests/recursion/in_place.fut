-- A recursive function that consumes its array argument and updates it in place.
-- ==
-- input { 4i64 } output { [0, 2, 4, 6] }
-- input { 0i64 } output { empty([0]i32) }

def fill (xs: *[]i32) (i: i64) : *[]i32 =
  if i >= length xs then xs else fill (xs with [i] = i32.i64 i * 2) (i + 1)

entry main (n: i64) = fill (replicate n 0) 0
