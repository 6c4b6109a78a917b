-- A fresh (*) return type cannot alias a non-consumed parameter.
-- ==
-- error: return-aliased
def f (xs: []i32) : *[]i32 = xs
def main (xs: []i32) = f xs
