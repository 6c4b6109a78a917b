-- Tuples: construction, .0 .1 projection, nested projection.
-- ==
-- input { 1 2.0 } output { 2.0 1 true }
def main (a: i32) (b: f64) =
  let t = (a, (b, true))
  in (t.1.0, t.0, t.1.1)
