-- One parameter is updated and the two are swapped: both end up consumed,
-- and the initial copies are fresh, so this is fine.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [2, 5, 6] [1, 2, 3] }

def main (xs: []i32) (ys: []i32) =
  loop (a, b) = (copy xs, copy ys) for i < 3 do (b with [0] = i, a)
