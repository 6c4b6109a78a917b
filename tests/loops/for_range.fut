-- loop with `for i < n`: sum of squares.
-- ==
-- input { 5 } output { 30 }
-- input { 0 } output { 0 }
def main (n: i32) = loop acc = 0 for i < n do acc + i * i
