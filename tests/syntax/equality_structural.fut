-- Equality and inequality work on arrays, tuples and records.
-- ==
-- input { [1, 2] [1, 2] } output { true true false }
-- input { [1, 2] [1, 3] } output { false true true }
def main [n] (xs: [n]i32) (ys: [n]i32) =
  (xs == ys, (1, 2) != (1, 3), {a = xs[1]} != {a = ys[1]})
