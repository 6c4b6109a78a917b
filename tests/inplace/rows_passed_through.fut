-- A map that returns its element unchanged makes a copy of its input.
-- The simplifier reads the input instead where nothing updates either
-- array in place (`main`: the copy and the input are both outputs); where
-- the copy is updated while the input is still used (`upd`), the copy
-- stays, and the input keeps its values.
-- ==
-- input { [1f32, 2f32, 3f32] }
-- output { [1f32, 2f32, 3f32] [1f32, 4f32, 9f32] [1f32, 2f32, 3f32] }
entry main (xs: []f32) =
  let (ys, sq) = unzip (map (\x -> (x, x * x)) xs)
  in (ys, sq, xs)

-- ==
-- entry: upd
-- input { [1f32, 2f32, 3f32] }
-- output { [7f32, 2f32, 3f32] [1f32, 4f32, 9f32] [1f32, 2f32, 3f32] }
-- input { [-1f32] }
-- output { [7f32] [1f32] [-1f32] }
entry upd (xs: []f32) =
  let (ys, sq) = (map (\x -> x) xs, map (\x -> x * x) xs)
  let ys[0] = 7
  in (ys, sq, xs)
