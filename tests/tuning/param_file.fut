-- Tuning parameters: `#[param(NAME)] e` of type i64 is the value that the
-- tuning file next to the program (param_file.fut.tuning, passed with
-- `--tuning` as `futhark test` does) gives NAME, or `e` where the file does
-- not set NAME. The attribute covers the whole expression after it.
-- ==
-- entry: scalar
-- input { 5i64 } output { 16i64 7i64 }

entry scalar (x: i64) = (#[param(block)] x, #[param(unset)] x + 2)

-- Inside a parallel map.
-- ==
-- entry: in_map
-- input { [1i64, 2i64] } output { [17i64, 18i64] }

entry in_map (xs: []i64) = map (\x -> x + #[param(block)] 0) xs

-- Inside a function called from an entry point.
-- ==
-- entry: through_fun
-- input { [1i64, 2i64, 3i64] } output { [3i64, 6i64, 9i64] }

def scale_all [n] (xs: [n]i64) : [n]i64 = map (\x -> x * #[param(factor)] 1) xs

entry through_fun (xs: []i64) = scale_all xs

-- On an expression that is not an i64 the attribute does nothing.
-- ==
-- entry: narrow
-- input { 4 } output { 5 }

entry narrow (x: i32) = #[param(block)] x + 1
