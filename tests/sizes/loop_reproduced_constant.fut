-- A loop whose body gives back an array literal of the initial size (a
-- constant) keeps that size: Futhark counts a size the body reproduces as
-- invariant, so the loop's result is a [2]f64, not an existential size.
-- (A size computed from the parameter's, `xs ++ xs`, still varies: see
-- loop_empty_init_variant.fut.)
-- ==
-- entry: swap_mul
-- input { [1.0, 2.0] } output { [2.0, 4.0] }
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[3, 2], [6, 5]] }

entry swap_mul (x: [2]f64) : [2]f64 = loop y = x for _i < 2 do [y[1], y[0] * y[1]]

-- The row size (3) is reproduced by a literal, the number of rows by a map.
entry rows (xs: [2][3]i32) : [2][2]i32 =
  let ys = loop ys = xs for _i < 1 do map (\r -> [r[2], r[0], r[1]]) ys
  in map (\r -> [r[0], r[2]]) ys
