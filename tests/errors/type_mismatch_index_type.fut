-- Indices must be i64, not i32.
-- ==
-- error: type-mismatch
def main (xs: []i32) (i: i32) = xs[i]
