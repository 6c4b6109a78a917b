-- The inner size of an empty array literal determines nothing.
-- ==
-- error: ambiguous-size.*Ambiguous size "m"
def main =
  let [n][m] (xss: [n][m]i64) = []
  in (n, m)
