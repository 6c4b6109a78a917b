-- Seed 000's convolution (figure 2b): out[i] = sum over j of x[j] *
-- y[j + i], for every i < p - n + 1. The optimised program is one loop
-- over i whose sum builds no array (checked by a driver test).
-- With x = [1, 2] and y = [1, 2, 3, 4]: 1*1 + 2*2 = 5, 1*2 + 2*3 = 8,
-- 1*3 + 2*4 = 11.
-- ==
-- entry: conv
-- input { [1f32, 2f32] [1f32, 2f32, 3f32, 4f32] }
-- output { [5f32, 8f32, 11f32] }
-- input { [3f32] [1f32, -1f32] }
-- output { [3f32, -3f32] }

entry conv [n][p] (x: [n]f32) (y: [p]f32) : []f32 =
  map (\i -> f32.sum (map (\j -> x[j] * y[j + i]) (iota n))) (iota (p - n + 1))
