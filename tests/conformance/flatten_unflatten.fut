-- flatten and unflatten, with transpose.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [1, 2, 3, 4, 5, 6] [[1, 2], [3, 4], [5, 6]] [[1, 4], [2, 5], [3, 6]] }
def main [n][m] (xss: [n][m]i32) =
  let flat = flatten xss
  in (flat, unflatten (flat :> [m * n]i32), transpose xss)
