-- A definition without parameters declared with a function type: the
-- anonymous size of its parameter is an implicit size parameter (as in a
-- `val` specification), and that of its result is existential.
-- ==
-- entry: main
-- input { [1f32, 2f32, 3f32] } output { [2f32, 4f32, 6f32] }
-- ==
-- entry: total
-- input { [1f32, 2f32, 3f32] } output { 6f32 }

def double [n] (xs: [n]f32) : [n]f32 = map (* 2) xs

def main : []f32 -> []f32 = double

entry total : []f32 -> f32 = f32.sum
