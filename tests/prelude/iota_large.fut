-- Large iota: last element and sum of squares.
-- ==
-- input { 100000i64 } output { 99999i64 333328333350000i64 }
def main (n: i64) =
  let xs = iota n
  in (xs[n - 1], reduce (+) 0 (map (\x -> x * x) xs))
