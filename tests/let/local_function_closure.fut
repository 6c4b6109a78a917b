-- A local function capturing a variable from its scope.
-- ==
-- input { [1, 2, 3] 10 } output { [11, 12, 13] }
def main (xs: []i32) (k: i32) =
  let add_k (x: i32) : i32 = x + k
  in map add_k xs
