-- Unsuffixed literals take their type from context; unconstrained ones default to i32 / f64.
-- ==
-- input { 3u16 2.0f32 } output { 10u16 3.0f32 7 2.5 }
def main (a: u16) (b: f32) =
  let x = 7
  let y = 2.5
  in (a + 7, b + 1, x, y)
