-- The size of a filter result is existential; use length to get it.
-- ==
-- input { 100000i64 } output { 33334i64 }
-- input { 1i64 } output { 1i64 }
-- input { 0i64 } output { 0i64 }
def main (n: i64) = filter (\i -> i % 3 == 0) (iota n) |> length
