-- Binary search with a while loop: the first index whose element is >= the key
-- (n if every element is smaller), mapped over several keys.
-- ==
-- input { [1, 3, 5, 7, 9, 11] [5, 0, 12, 8, 1, 11] } output { [2i64, 0i64, 6i64, 4i64, 0i64, 5i64] }
-- input { empty([0]i32) [3] } output { [0i64] }
def lower_bound [n] (xs: [n]i32) (key: i32) : i64 =
  let (lo, _) =
    loop (lo, hi) = (0, n) while lo < hi do
      let mid = (lo + hi) / 2
      in if xs[mid] < key then (mid + 1, hi) else (lo, mid)
  in lo

def main [n] (xs: [n]i32) (keys: []i32) = map (lower_bound xs) keys
