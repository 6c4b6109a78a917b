-- Composed functions passed to map.
-- ==
-- input { [1, 2, 3] } output { [4, 9, 16] [3, 5, 7] }
def main (xs: []i32) =
  (map ((+ 1) >-> (\x -> x * x)) xs, map ((+ 1) <-< (* 2)) xs)
