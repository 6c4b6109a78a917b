-- Anonymous sizes in a declared return type are inferred from the body
-- (Futhark 0.27): two results the body gives one size can be zipped by the
-- caller, and a size known from the parameters stays that size.
-- ==
-- input { 3i64 } output { [0i64, 2i64, 4i64] [1, 2, 3] }

def twice_filtered (n: i64) : ([]i64, []i64) =
  let xs = filter (>= 0) (iota n)
  in (xs, xs)

def incr [n] (xs: [n]i32) : []i32 = map (+ 1) xs

def main (n: i64) =
  let (a, b) = twice_filtered n
  in (map2 (+) a b, map2 (+) (incr (replicate n 0)) (map i32.i64 (iota n)))
