-- Slice bounds must be i64, unlike indices.
-- ==
-- error: type-mismatch
def main (xs: []i32) (i: i32) = xs[i:]
