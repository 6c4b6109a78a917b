-- if inside map inside loop.
-- ==
-- input { [1, 2, 3, 4] 3 } output { [3, 5, 5, 7] }
def main (xs: []i32) (k: i32) =
  loop ys = xs for i < k do
    map (\y -> if (y + i) % 2 == 0 then y + 1 else y) ys
