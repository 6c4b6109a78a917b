-- Attributes on definitions and expressions.
-- ==
-- input { [5, 6, 7] 1i64 } output { 6 }
#[inline]
def get (xs: []i32) (i: i64) = #[unsafe] xs[i]
-- | Doc comment for main.
-- More doc.
def main (xs: []i32) (i: i64) = get xs i
