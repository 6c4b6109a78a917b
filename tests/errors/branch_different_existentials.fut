-- Two results of a branch whose sizes differ in one branch (3 and 3, but
-- 2 and 1) have different existential sizes.
-- ==
-- error: size-mismatch
def main (b: bool) =
  let (xs, ys) = if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3])
  in map2 (+) xs ys
