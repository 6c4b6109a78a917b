-- A let-ascription fixes the type of an unsuffixed literal.
-- ==
-- input { } output { 7i64 7u16 7f32 }
def main =
  let a: i64 = 7
  let b: u16 = 7
  let c: f32 = 7
  in (a, b, c)
