-- Returning functions through two levels of application.
-- ==
-- input { 2 3 4 } output { 24 }
def mul3 (a: i32) : i32 -> i32 -> i32 = \b c -> a * b * c
def main (a: i32) (b: i32) (c: i32) =
  let g = mul3 a
  let h = g b
  in h c
