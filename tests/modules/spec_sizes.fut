-- Sizes in a value specification are checked: `xs` must have `n` elements.
-- ==
-- error: module-mismatch.*Sizes "n"

module m : {val n : i64 val xs : [n]i32} = {
  def n : i64 = 2
  def xs : [3]i32 = [1, 2, 3]
}
