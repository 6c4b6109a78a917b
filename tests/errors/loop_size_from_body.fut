-- The body equates the size of the loop parameter `ys` with the size of
-- `zs`, which the body itself computes with `filter`: no initial value can
-- have that size.
-- ==
-- error: loop-size-from-body.*existential size created inside the loop body

def main [n] (xs: [n]i32) =
  loop ys = xs for _i < 2 do
    let zs = filter (> 0) xs
    let _ = zip zs ys
    in ys ++ ys
