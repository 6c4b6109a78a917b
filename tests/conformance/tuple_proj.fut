-- Tuple projection with .0 .1, nested tuples, and arrays of tuples.
-- ==
-- input { [1, 2, 3] } output { 6 [2, 4, 6] 1 }
def main (xs: []i32) =
  let ps = map (\x -> (x, (x * 2, x == 1))) xs
  let s = reduce (+) 0 (map (.0) ps)
  let ds = map (\p -> p.1.0) ps
  let firsts = filter (\p -> p.1.1) ps
  in (s, ds, (head firsts).0)
