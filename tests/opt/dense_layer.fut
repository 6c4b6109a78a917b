-- Seed 000's dense layer (figure 2a): relu (W x + b). In A_iNF every
-- statement is its own loop; the middle end splits the maps that way and
-- merges them back, so the optimised program is one loop over the rows
-- whose dot product builds no array (checked by a driver test).
-- Row 1: 1*1 + 2*0 + 3*2 + 1 = 8; row 2: 4*1 + 5*0 + 6*2 - 20 = -4,
-- which relu makes 0.
-- ==
-- entry: dense
-- input { [1f32, -20f32] [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] [1f32, 0f32, 2f32] }
-- output { [8f32, 0f32] }
-- input { empty([0]f32) empty([0][3]f32) [1f32, 0f32, 2f32] }
-- output { empty([0]f32) }

def dot [m] (a: [m]f32) (b: [m]f32) : f32 = f32.sum (map2 (*) a b)

entry dense [n][m] (b: [n]f32) (w: [n][m]f32) (x: [m]f32) : [n]f32 =
  map2 (\row bi -> f32.max 0 (dot row x + bi)) w b
