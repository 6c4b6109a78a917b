-- Tuple patterns in let, nested, and a loop with tuple state followed by lets.
-- ==
-- input { 10i64 } output { 55i64 89i64 110i64 }
-- input { 0i64 } output { 0i64 1i64 0i64 }
def main (n: i64) =
  let (a, b) = (0i64, 1i64)
  let (x, y) = loop (a, b) = (a, b) for i < n do (b, a + b)
  let ((p, _), q) = ((x * 2, y), x)
  in (x, y, p + q - x)
