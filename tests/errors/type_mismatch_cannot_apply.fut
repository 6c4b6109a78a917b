-- A mistyped argument names the function and the argument.
-- ==
-- error: type-mismatch.*Cannot apply "halve" to "flag"
def halve (x: f64) = x / 2
def main (flag: bool) = halve flag
