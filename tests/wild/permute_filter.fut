-- Scatter as a permutation, irregular filter results fed into further
-- SOACs, zip3/unzip3, existential sizes bound with `let [m]`, operator
-- sections, and partition.
-- ==
-- input { [5i32, -3, 8, 0, -1, 7] }
-- output { [7i32, -1, 0, 8, -3, 5] 3i64 20i32 [5i32, 8, 7] [-3i32, 0, -1] [10i32, 16, 14] [0i64, 2, 5] }

def reverse_by_scatter [n] 't (xs: [n]t) : [n]t =
  scatter (copy xs) (map (\i -> n - 1 - i) (iota n)) xs

def main [n] (xs: [n]i32) =
  let rev = reverse_by_scatter xs
  let [m] (pos: [m]i32) = filter (> 0) xs
  let total = reduce (+) 0 pos
  let (ps, nonpos) = partition (> 0) xs
  let (a, b, c) = unzip3 (zip3 pos (map (* 2) pos) (map (\i -> i * 2) (indices pos)))
  let doubled = map2 (\x y -> x + y) a a
  let idx = map (.0) (filter (\(_, v) -> v > 0) (zip (iota n) xs))
  in (rev, m, total + i32.i64 (length b) - i32.i64 (length c), ps, nonpos, doubled, idx)
