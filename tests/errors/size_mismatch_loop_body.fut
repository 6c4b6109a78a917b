-- A loop body that changes the size the loop parameter declares.
-- ==
-- error: size-mismatch.*Loop body does not have expected type
def main [n] (xs: [n]i32) =
  loop (acc: [n]i32) = xs for _i < 3 do concat acc acc
