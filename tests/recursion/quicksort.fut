-- Recursion whose results have sizes known only when the call returns.
-- ==
-- input { [3,1,4,1,5,9,2,6,5,3,5] } output { [1,1,2,3,3,4,5,5,5,6,9] }
-- input { empty([0]i32) } output { empty([0]i32) }

def qsort [n] (xs: [n]i32) : []i32 =
  if n <= 1 then xs
  else let p = xs[0]
       let (lo, hi) = partition (< p) (drop 1 xs)
       in qsort lo ++ [p] ++ qsort hi

entry main (xs: []i32) = qsort xs
