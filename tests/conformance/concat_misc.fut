-- concat, ++, rotate, take/drop, split, reverse.
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [1, 2, 3, 4, 5, 1, 2] [3, 4, 5, 1, 2] [1, 2] [3, 4, 5] [5, 4, 3, 2, 1] [1, 2, 3] [4, 5] }
def main (xs: []i32) =
  let (a, b) = split (take 3 xs ++ drop 3 xs :> [3 + 2]i32)
  in (concat xs (take 2 xs), rotate 2 xs, take 2 xs, drop 2 xs, reverse xs, a, b)
