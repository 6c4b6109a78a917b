-- Counting elements satisfying a predicate with map and reduce.
-- ==
-- input { [1, 5, 10, 15, 20] 9 } output { 3i64 }
-- input { empty([0]i32) 0 } output { 0i64 }
def main (xs: []i32) (t: i32) : i64 =
  reduce (+) 0 (map (\x -> if x > t then 1 else 0) xs)
