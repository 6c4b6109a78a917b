-- Data files and input blocks may write floats without a suffix (and
-- integers where a float is expected): each value is read as the entry
-- point's parameter is typed, as a compiled program reads its input.
-- sum [[1,6,0.5],[2,1.25,3]] = 13.75; * 2 = 27.5; + 0.25 = 27.75.
-- ==
-- input @ inputs/unsuffixed.in
-- output { 27.75f32 }
-- input { 1 [[1.0, 2.0]] 1 }
-- output { 4f32 }

entry main (k: i32) (xss: [][]f32) (c: f32) : f32 =
  f32.sum (flatten xss) * f32.i32 k + c
