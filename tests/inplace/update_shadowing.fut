-- Consuming an array and rebinding the same name is valid.
-- ==
-- input { [1, 2, 3] } output { [10, 20, 3] }
def main (xs: *[]i32) =
  let xs = xs with [0] = 10
  let xs = xs with [1] = 20
  in xs
