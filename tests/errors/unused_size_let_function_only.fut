-- A size bound by `let [k]` that only a function type uses.
-- ==
-- error: unused-size.*Cannot bind \[k\]
def main (b: bool) =
  let [k] (g: [k]bool -> [k]bool) = \(xs: [4]bool) -> map (\x -> x != b) xs
  in k
