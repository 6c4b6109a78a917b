-- A sequential prefix sum with in-place updates, reading earlier elements.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
def main [n] (xs: [n]i32) =
  loop out = copy xs for i in 1..<n do out with [i] = out[i - 1] + xs[i]
