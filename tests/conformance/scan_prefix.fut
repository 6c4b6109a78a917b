-- Inclusive and exclusive scans; segmented-style usage.
-- ==
-- input { [3, 1, 4, 1, 5] } output { [3, 4, 8, 9, 14] [0, 3, 4, 8, 9] [3, 3, 4, 4, 5] }
def exscan [n] (xs: [n]i32) : [n]i32 =
  let inc = scan (+) 0 xs
  in map (\i -> if i == 0 then 0 else inc[i - 1]) (iota n)
def main (xs: []i32) = (scan (+) 0 xs, exscan xs, scan i32.max i32.lowest xs)
