-- Chained ++ with literal arrays; the result size 2+1+2 is coerced to 5.
-- ==
-- input { 5 } output { [0, 5, 1, 2, 5] }
def main (x: i32) : [5]i32 = [0, x] ++ [1] ++ [2, x] :> [5]i32
