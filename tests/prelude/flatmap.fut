-- flatmap: irregular results concatenated, with their shape, flags and
-- offsets, and the regular results.
-- ==
-- entry: segments
-- input { [2i64, 0i64, 3i64] [1, 2, 3] }
-- output { [2i64, 0i64, 3i64] [true, false, true, false, false] [0i64, 2i64, 2i64] [1, 1, 3, 3, 3] [2, 4, 6] }
-- input { [0i64, 0i64] [1, 2] }
-- output { [0i64, 0i64] empty([0]bool) [0i64, 0i64] empty([0]i32) [2, 4] }
-- input { empty([0]i64) empty([0]i32) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i32) empty([0]i32) }
entry segments (ks: []i64) (xs: []i32) =
  let f (k: i64, x: i32) : ?[m].([m]i32, i32) = (replicate k x, x * 2)
  in flatmap f (zip ks xs)

-- Rows as elements, and a lambda whose result size depends on its argument.
-- ==
-- entry: rows
-- input { [1i64, 2i64] } output { [[0, 1], [0, 1], [1, 2]] }
entry rows (ks: []i64) =
  let (_, _, _, d, _) = flatmap (\k -> (map (\i -> [i32.i64 i, i32.i64 i + 1]) (iota k), ())) ks
  in d

-- flatmap' leaves out the regular results.
-- ==
-- entry: ranges
-- input { [3i64, 1i64] } output { [3i64, 1i64] [true, false, false, true] [0i64, 3i64] [0i64, 1i64, 2i64, 0i64] }
entry ranges (ks: []i64) = flatmap' iota ks
