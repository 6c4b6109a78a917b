-- The k-means cost written as nested maps, and its gradient by `vjp`: the
-- sum over the points of the squared Euclidean distance to the nearest
-- centre. The gradient with respect to the centres is, in closed form,
-- -2(p - c) for every point p added to its nearest centre c. f32.
-- ==
-- entry: objective
-- gradcheck nobench input {
--   [[-2.15625f32, 1.71875f32], [-1f32, -1.875f32], [-1.09375f32, -1.96875f32], [-2.03125f32,
--   1.9375f32], [-0.71875f32, -1.8125f32], [-1.0625f32, -1.90625f32]] [[-2f32, 1.75f32], [-1.125f32,
--   1.125f32], [-0.875f32, -1.75f32]] }
-- output { 0.276367188f32 }
-- notest input @ data/kmeans_ad-k1024-n1000-d256.in
-- notest input @ data/kmeans_ad-k1024-n10000-d256.in

-- ==
-- entry: gradient
-- nobench input {
--   [[-2.15625f32, 1.71875f32], [-1f32, -1.875f32], [-1.09375f32, -1.96875f32], [-2.03125f32,
--   1.9375f32], [-0.71875f32, -1.8125f32], [-1.0625f32, -1.90625f32]] [[-2f32, 1.75f32], [-1.125f32,
--   1.125f32], [-0.875f32, -1.75f32]] }
-- output {
--   [[0.375f32, -0.3125f32], [0f32, 0f32], [0.75f32, 1.125f32]] }
-- notest input @ data/kmeans_ad-k1024-n1000-d256.in
-- notest input @ data/kmeans_ad-k1024-n10000-d256.in

def dist [d] (p: [d]f32) (c: [d]f32) : f32 =
  f32.sum (map2 (\x y -> (x - y) * (x - y)) p c)

entry objective [n][k][d] (points: [n][d]f32) (centres: [k][d]f32) : f32 =
  f32.sum (map (\p -> f32.minimum (map (dist p) centres)) points)

entry gradient [n][k][d] (points: [n][d]f32) (centres: [k][d]f32) : [k][d]f32 =
  vjp (objective points) centres 1
