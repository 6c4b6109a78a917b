-- Large scan; returns the last element and one in the middle.
-- ==
-- input { 100000i64 } output { 4999950000i64 1250025000i64 }
def main (n: i64) =
  let s = scan (+) 0 (iota n)
  in (s[n - 1], s[n / 2])
