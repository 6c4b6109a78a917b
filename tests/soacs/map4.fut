-- map4 computing a*b + c*d.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] } output { [38, 56] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) =
  map4 (\x y z w -> x * y + z * w) a b c d
