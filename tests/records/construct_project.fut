-- Record construction and field projection.
-- ==
-- input { 1 2.5 } output { 2.5 1 }
def main (a: i32) (b: f64) =
  let r = {x = a, y = b}
  in (r.y, r.x)
