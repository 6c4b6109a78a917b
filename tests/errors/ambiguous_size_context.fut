-- A size parameter that only the result type uses, with nothing to determine it.
-- ==
-- error: ambiguous-size.*Ambiguous size "m"
def zeros [m] : [m]i32 = replicate m 0
def main (x: i32) = length zeros + i64.i32 x
