-- A pattern with a type ascription inside.
-- ==
-- input { } output { 5i64 2.5f32 }
def main =
  let (x: i64, y: f32) = (5, 2.5)
  in (x, y)
