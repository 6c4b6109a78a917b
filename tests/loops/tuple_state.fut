-- loop with tuple state: Fibonacci numbers.
-- ==
-- input { 10 } output { 55 }
-- input { 1 } output { 1 }
def main (n: i32) =
  let (a, _) = loop (a, b) = (0, 1) for _i < n do (b, a + b)
  in a
