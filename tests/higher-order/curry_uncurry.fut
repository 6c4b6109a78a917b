-- curry, uncurry and flip from the prelude.
-- ==
-- input { 7 2 } output { 5 5 -5 }
def sub (a: i32) (b: i32) = a - b
def main (x: i32) (y: i32) =
  (uncurry sub (x, y), curry (\(a, b) -> a - b) x y, flip sub x y)
