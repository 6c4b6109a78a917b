-- Local functions that capture variables, used in higher-order calls.
-- ==
-- input { [1, 2, 3] 10 } output { [11, 12, 13] 39 }
def main (xs: []i32) (k: i32) =
  let add x = x + k
  let twice f x = f (f x)
  in (map add xs, twice (\s -> s + 3) (reduce (+) 0 (map add xs)) - 3)
