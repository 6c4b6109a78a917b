-- Function composition >-> (left to right) and <-< (right to left).
-- ==
-- input { 3 } output { 8 7 }
def main (x: i32) =
  let inc = \y -> y + 1
  let dbl = \y -> y * 2
  in ((inc >-> dbl) x, (inc <-< dbl) x)
