-- Loop parameters whose sizes change through another parameter: `y` takes
-- `x`, whose size the body changes, so both sizes are existential.
-- ==
-- input { [1, 2, 3] [4, 5, 6] 0 } output { [1, 2, 3] [4, 5, 6] }
-- input { [1, 2, 3] [4, 5, 6] 2 } output { [2, 3] [5, 6] }
-- input { [1, 2, 3] [4, 5, 6] 3 } output { [6] [2, 3] }
def main [n] (a: [n]i32) (b: [n]i32) (k: i32) =
  loop (x, y) = (a, b) for _i < k do (y[1:], x)
