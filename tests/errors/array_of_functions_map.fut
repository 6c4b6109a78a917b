-- map cannot produce an array of functions.
-- ==
-- error: array-of-functions|type-mismatch
def main (xs: []i32) =
  let fs = map (\x -> \(y: i32) -> x + y) xs
  in length fs
