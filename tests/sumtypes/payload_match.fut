-- Constructors with payloads of different arities.
-- ==
-- input { 2.0 3.0 } output { 12.0 6.0 0.0 }
type shape = #circle f64 | #rect f64 f64 | #none
def area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #none -> 0.0
def main (a: f64) (b: f64) = (area (#circle a), area (#rect a b), area #none)
