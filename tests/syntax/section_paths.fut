-- Projection sections with paths of fields and indices (Futhark 0.27).
-- ==
-- entry: sections
-- input { [1, 2, 3] } output { 2 7 1 [2, 3] }
entry sections (xs: []i32) =
  let r = {a = xs, b = {c = 7i32}}
  in ((.a[1]) r, (.b.c) r, (.[0].a[0]) [r], (.[0].a[1:3]) [r])

-- ==
-- entry: mapped
-- input { [[1, 2], [3, 4]] } output { [2, 4] }
entry mapped (xss: [][]i32) =
  let rs = map (\xs -> {p = (0i32, xs)}) xss
  in map (.p.1[1]) rs
