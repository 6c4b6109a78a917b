-- Array indices must be signed integers.
-- ==
-- error: type-mismatch
def main (xs: []i32) (i: u32) = xs[i]
