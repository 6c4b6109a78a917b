-- Functions cannot be array elements.
-- ==
-- error: array-of-functions
def main (x: i32) =
  let fs = [(\(y: i32) -> y + 1), (\(y: i32) -> y * 2)]
  in fs[0] x
