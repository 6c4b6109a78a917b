-- Loops whose array parameter changes size, and branches of different sizes.
-- ==
-- input { [1, 2, 3, 4, 5] true } output { [5] [1, 2] 3i64 }
-- input { [7, 8] false } output { [8] [3, 4, 5] 2i64 }
def main (xs: []i32) (b: bool) =
  let shrunk = loop ys = xs while length ys > 1 do ys[1:]
  let zs = if b then [1, 2] else [3, 4, 5]
  let halves = loop (ys, k) = (xs, 0i64) while length ys > 1 do (ys[:length ys / 2], k + 1)
  let (_, k) = halves
  in (shrunk, zs, k + 1)
