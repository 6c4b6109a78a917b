-- One let-bound size for two arrays of different constant sizes.
-- ==
-- error: Pattern cannot match.*"1" and "2" do not match
def main =
  let [n] (a: [n]i64, b: [n]i64) = (iota 1, iota 2)
  in zip a b
