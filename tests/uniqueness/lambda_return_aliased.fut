-- A lambda declared to return a unique array returns its non-unique parameter.
-- ==
-- error: return-aliased.*aliased to "ys"

def main (xs: []i32) = (\(ys: []i32) : *[]i32 -> ys) xs
