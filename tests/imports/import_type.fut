-- A type abbreviation from an imported file.
-- ==
-- input { -3 4 } output { 7 }
import "lib_math"
def main (a: i32) (b: i32) =
  let p: point = {x = a, y = b}
  in manhattan p
