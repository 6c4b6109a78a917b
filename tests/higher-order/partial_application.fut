-- Partial application of a curried function.
-- ==
-- input { [1, 2, 3] } output { [11, 12, 13] }
def add (a: i32) (b: i32) = a + b
def main (xs: []i32) =
  let add10 = add 10
  in map add10 xs
