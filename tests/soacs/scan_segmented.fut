-- A segmented prefix sum written by the user with a flag/value operator.
-- A true flag starts a new segment.
-- ==
-- input { [true, false, true, false, false, true] [1, 2, 3, 4, 5, 6] }
-- output { [1, 3, 3, 7, 12, 6] }
-- input { [false, false, false] [1, 1, 1] } output { [1, 2, 3] }
-- input { [true, true, true] [4, 5, 6] } output { [4, 5, 6] }
def segop (f1: bool, v1: i32) (f2: bool, v2: i32) : (bool, i32) =
  (f1 || f2, if f2 then v2 else v1 + v2)

def main [n] (flags: [n]bool) (vs: [n]i32) =
  let (_, res) = unzip (scan segop (false, 0) (zip flags vs))
  in res
