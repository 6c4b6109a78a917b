-- all and any on a large iota.
-- ==
-- input { 100000i64 } output { true false true }
def main (n: i64) =
  (all (< n) (iota n), any (>= n) (iota n), any (== n - 1) (iota n))
