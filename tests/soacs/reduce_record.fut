-- reduce with a record accumulator tracking min and max at once.
-- ==
-- input { [4, -2, 9, 0] } output { -2 9 }
type mm = {lo: i32, hi: i32}

def main (xs: []i32) =
  let r = reduce (\(a: mm) (b: mm) -> {lo = i32.min a.lo b.lo, hi = i32.max a.hi b.hi})
                 {lo = i32.highest, hi = i32.lowest}
                 (map (\x -> {lo = x, hi = x}) xs)
  in (r.lo, r.hi)
