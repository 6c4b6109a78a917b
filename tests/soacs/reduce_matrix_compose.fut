-- reduce with a non-commutative operator: 2x2 matrix multiplication on 4-tuples.
-- The order of the operands must be preserved.
-- ==
-- input { [1, 0, 2, 1] [2, 1, 0, -1] [3, 1, 1, 0] [4, 0, 1, 3] }
-- output { 5 -2 11 -2 }
-- input { [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
--         [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }
-- output { 89 55 55 34 }
-- input { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) }
-- output { 1 0 0 1 }
def mmul (a: i32, b: i32, c: i32, d: i32) (e: i32, f: i32, g: i32, h: i32) =
  (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)

def main [n] (as: [n]i32) (bs: [n]i32) (cs: [n]i32) (ds: [n]i32) =
  reduce mmul (1, 0, 0, 1) (zip4 as bs cs ds)
