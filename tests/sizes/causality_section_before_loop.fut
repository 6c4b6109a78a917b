-- The left operand of `<|` is evaluated before the right one: the section's
-- type needs the loop's result size, which the loop computes later.
-- ==
-- error: causality-check

def main (n: i64) : []i64 =
  ([0] ++) <| loop (xs: []i64) = [1] for i < n do xs ++ xs
