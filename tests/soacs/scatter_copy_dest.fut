-- scatter into a copy of an input array; the original is unchanged.
-- ==
-- input { [true, true, true] [0i64, 2i64] } output { [false, true, false] [true, true, true] }
def main [n] (bs: [n]bool) (is: []i64) =
  let r = scatter (copy bs) is (map (const false) is)
  in (r, bs)
