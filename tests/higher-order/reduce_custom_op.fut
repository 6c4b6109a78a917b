-- reduce with a lambda operator and scan with a section.
-- ==
-- input { [3, 9, 2, 7] } output { 9 [3, 12, 14, 21] }
def main (xs: []i32) =
  (reduce (\a b -> if a > b then a else b) i32.lowest xs, scan (+) 0 xs)
