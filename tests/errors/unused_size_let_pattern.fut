-- A size bound by `let [k]` must be used in the pattern's type.
-- ==
-- error: unused-size.*Size \[k\] unused in pattern
def main (xs: []f32) =
  let [k] pos = filter (> 0f32) xs
  in k
