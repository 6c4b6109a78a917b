-- A local function defined with let.
-- ==
-- input { [1, 2, 3] } output { [3, 5, 7] }
def main (xs: []i32) =
  let f x = 2 * x + 1
  in map f xs
