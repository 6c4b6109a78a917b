-- partition, filter, all, any, and zip with indices.
-- ==
-- input { [5, 8, 1, 6, 3] } output { [8, 6] [5, 1, 3] true false [1i64, 3i64] }
def main (xs: []i32) =
  let (evens, odds) = partition (\x -> x % 2 == 0) xs
  let idx = map (.1) (filter (\(x, _) -> x % 2 == 0) (zip xs (indices xs)))
  in (evens, odds, all (> 0) xs, any (> 10) xs, idx)
