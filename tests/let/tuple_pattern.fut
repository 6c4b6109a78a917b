-- let with a tuple pattern.
-- ==
-- input { 3 4 } output { 7 12 }
def main (a: i32) (b: i32) =
  let (s, p) = (a + b, a * b)
  in (s, p)
