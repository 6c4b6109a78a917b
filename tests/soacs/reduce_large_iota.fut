-- Sum of a large iota as i64, so that real sizes are exercised.
-- ==
-- input { 100000i64 } output { 4999950000i64 }
-- input { 1000000i64 } output { 499999500000i64 }
-- input { 0i64 } output { 0i64 }
def main (n: i64) = reduce (+) 0 (iota n)
