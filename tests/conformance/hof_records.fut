-- Functions stored in records (type^), chosen by an index, applied in map.
-- ==
-- input { [1, 2, 3] 1 } output { [2, 4, 6] }
-- input { [1, 2, 3] 0 } output { [2, 3, 4] }
type^ ops = {inc: i32 -> i32, dbl: i32 -> i32}
def table : ops = {inc = (+ 1), dbl = (* 2)}
def main (xs: []i32) (k: i32) =
  map (\x -> if k == 0 then table.inc x else table.dbl x) xs
