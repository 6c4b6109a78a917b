-- A let-bound size used for two dimensions that differ.
-- ==
-- error: size-mismatch.*"n" and "m" do not match
def main (n: i64) (m: i64) =
  let [k] (xss: [k][k]i64) = replicate n (iota m)
  in k
