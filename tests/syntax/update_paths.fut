-- Update paths mixing record fields and indices (Futhark 0.27), in `with`
-- and in `let`.
-- ==
-- entry: field_then_index
-- input { 9 } output { [1, 9, 3] [10, 11] }
entry field_then_index (x: i32) =
  let r = {f = [1i32, 2, 3], g = {h = [4i32, 5]}}
  let r2 = r with f[1] = x
  let r3 = r2 with g.h[0] = x + 1
  let r3.g.h[1] = x + 2
  in (r3.f, r3.g.h)

-- ==
-- entry: index_then_field
-- input { 7 } output { 7 8 [0, 5, 0] }
entry index_then_field (x: i32) =
  let xs = [{f = 1i32, g = [0i32, 0, 0]}, {f = 2i32, g = [0i32, 0, 0]}]
  let ys = xs with [0].f = x
  let ys[1].f = x + 1
  let ys[1].g[1] = 5
  in (ys[0].f, ys[1].f, ys[1].g)

-- Tuple fields are numbers: `0[1]` is field 0, then index 1.
-- ==
-- entry: tuple_path
-- input { 4 } output { [1, 4] 3 }
entry tuple_path (x: i32) =
  let t = ([1i32, 2], 3i32)
  let u = t with 0[1] = x
  in (u.0, u.1)

-- The index of an inner step is evaluated once, and the target may be any
-- expression.
-- ==
-- entry: computed
-- input { [5, 6] 1i64 } output { [6, 0] [5, 42] }
entry computed (xs: []i32) (i: i64) =
  let rs = map (\x -> {v = [x, 0]}) xs
  let rs2 = (copy rs) with [i - 1].v[1] = 6
  let rs3 = rs2 with [i].v[0] = 42
  in (map (.v[1]) rs3, map (.v[0]) rs3)

-- A slice as the last step.
-- ==
-- entry: slice_last
-- input { 8 } output { [1, 8, 0, 4] }
entry slice_last (y: i32) =
  let r = {f = [1i32, 2, 3, 4]}
  let r.f[1:3] = [y, 0]
  in r.f
