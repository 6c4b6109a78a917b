-- A loop whose initial value has a size computed by that value (here the
-- existential size of a `filter`) may use the size in its body: the
-- initial value is evaluated before the loop, so the size is known there,
-- whether the body keeps the size (`map`) or changes it (`++`).
-- ==
-- entry: keeps
-- input { [1, -2, 3] 3i64 } output { [8, 24] }
-- input { [-1, -2] 5i64 } output { empty([0]i32) }
-- ==
-- entry: grows
-- input { [1, -2, 3] 2i64 } output { [1, 3, 1, 3, 1, 3, 1, 3] }
-- input { [0] 4i64 } output { empty([0]i32) }

entry keeps (xs: []i32) (n: i64) = loop ys = filter (> 0) xs for _i < n do map (* 2) ys

entry grows (xs: []i32) (n: i64) = loop ys = filter (> 0) xs for _i < n do ys ++ ys
