-- In-place updates inside a loop: squares written element by element.
-- ==
-- input { 5i64 } output { [0i64, 1i64, 4i64, 9i64, 16i64] }
def main (n: i64) =
  loop xs = replicate n 0 for i < n do xs with [i] = i * i
