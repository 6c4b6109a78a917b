-- A function returning a function (not from an if or loop).
-- ==
-- input { 3 4 } output { 12 }
def multiplier (k: i32) : i32 -> i32 = \x -> x * k
def main (k: i32) (x: i32) =
  let f = multiplier k
  in f x
