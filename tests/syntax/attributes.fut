-- Attributes #[unsafe], #[sequential] and an unknown attribute do not change results.
-- ==
-- input { [1, 2, 3] 1i64 } output { 2 [2, 4, 6] 6 }
def main (xs: []i32) (i: i64) =
  (#[unsafe] xs[i], #[sequential] map (*2) xs, #[whatever] i32.sum xs)
