-- A match whose branches build sums carrying fresh arrays, returned from the
-- function: each branch's array moves into the result. Generated C must
-- compile warning-free (GCC 12 once saw a use after free in the reference
-- juggling of exactly this shape).
-- ==
-- input { 2.0 3i64 false } output { 0.0 [0.0, 2.0, 4.0] }
-- input { 2.0 3i64 true } output { 4.0 empty([0]f64) }
type shape = #circle f64 | #poly []f64

def grow (k: f64) (s: shape) : shape =
  match s
  case #poly xs -> #poly (map (* k) xs)
  case #circle r -> #circle (r * k)

def main (k: f64) (n: i64) (c: bool) : (f64, []f64) =
  let s = if c then #circle 2.0 else #poly (map f64.i64 (iota n))
  in match grow k s
     case #poly xs -> (0, xs)
     case #circle r -> (r, [])
