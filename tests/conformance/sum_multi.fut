-- Constructors with several payloads and polymorphic sum types in records.
-- ==
-- input { 3.0 4.0 } output { 12.0 5.0 0.0 }
type shape = #rect f64 f64 | #circle f64 | #empty
def area (s: shape) : f64 =
  match s
  case #rect w h -> w * h
  case #circle r -> 3.0 * r * r
  case #empty -> 0
def perim_or_diag (s: shape) : f64 =
  match s
  case #rect w h -> f64.sqrt (w * w + h * h)
  case _ -> 0
def main (w: f64) (h: f64) =
  let shapes = [#rect w h, #empty]
  in (area shapes[0], perim_or_diag shapes[0], area shapes[1])
