-- i64.sum and i64.product over iota-derived inputs.
-- ==
-- input { 100000i64 } output { 4999950000i64 0i64 99999i64 0i64 }
-- input { 0i64 } output { 0i64 1i64 -9223372036854775808i64 9223372036854775807i64 }
def main (n: i64) =
  let xs = iota n
  in (i64.sum xs, i64.product xs, i64.maximum xs, i64.minimum xs)
