-- Operator sections, backtick sections and projection sections used with prelude SOACs.
-- ==
-- input { [1, 2, 3] } output { [9, 8, 7] [5, 10, 15] [1, 2, 3] }
def main (xs: []i32) =
  (map (10 -) xs, map (`i32.max` 5) xs |> map2 (*) xs, map (.0) (zip xs xs))
