-- Operator sections: (+), (x -), (/ y).
-- ==
-- input { [1, 2, 3] [7, 8, -7] } output { 6 [9, 8, 7] [3, 4, -4] }
def main (xs: []i32) (ys: []i32) =
  (reduce (+) 0 xs, map (10 -) xs, map (/ 2) ys)
