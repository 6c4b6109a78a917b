-- A definition may not consume an argument that its specification does
-- not consume.
-- ==
-- error: module-mismatch.*val f : \[3\]i32 -> i32.*\*\[3\]i32 -> i32

module m : {val f : [3]i32 -> i32} = {
  def f (xs: *[3]i32) : i32 = let xs[0] = 1 in xs[0]
}
