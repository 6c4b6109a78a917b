-- Two results of a branch that have equal sizes in each branch (3 and 3,
-- 2 and 2) share one existential size, so they can be zipped.
-- ==
-- input { true } output { [5, 7, 9] }
-- input { false } output { [4, 6] }
def main (b: bool) =
  let (xs, ys) = if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3, 4])
  in map2 (+) xs ys
