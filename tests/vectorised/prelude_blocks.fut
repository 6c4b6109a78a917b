-- GMM's per-component nest, ‖Q (x - μ)‖² for every point x, as register
-- tiles (`ogham-imp/src/lower/tile.rs`) whose rows are computed from the
-- points and a free array (the prelude `x - μ`). When the columns (Q's rows)
-- fit in one slab, each block of points has its `x - μ` computed once into
-- a buffer that the column tiles then read; otherwise the tiles compute
-- each element where they read it. Cases: 131 points of 256 (two blocks of
-- 125 points, the last tile one point; Q's 20 rows two and a half column
-- tiles); 440 rows of 600 (too many columns for a slab: computed in the
-- tiles); a small case of one block. Inputs are small integers, so every
-- sum is exact; expected values computed independently (Python integers).
-- ==
-- entry: qnorms
-- script input { gen 131i64 20i64 256i64 }
-- output { [31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64, 36542.0f64, 26871.0f64, 45558.0f64, 44711.0f64, 29556.0f64, 40159.0f64, 25807.0f64, 25578.0f64, 34194.0f64, 28671.0f64, 31239.0f64, 15794.0f64, 31099.0f64] }
-- script input { gen 7i64 440i64 600i64 }
-- output { [502480.0f64, 933680.0f64, 502480.0f64, 410080.0f64, 656480.0f64, 681120.0f64, 621280.0f64] }
-- script input { gen 13i64 9i64 5i64 }
-- output { [1181.0f64, 9437.0f64, 14340.0f64, 433.0f64, 9589.0f64, 8593.0f64, 1189.0f64, 13286.0f64, 619.0f64, 8285.0f64, 7333.0f64, 623.0f64, 8409.0f64] }

entry gen (n: i64) (m: i64) (d: i64) : ([m][d]f64, [d]f64, [n][d]f64) =
  (tabulate_2d m d (\r c -> f64.i64 ((r * 7 + c * 3) % 11 - 5)),
   tabulate d (\j -> f64.i64 (j % 5 - 2)),
   tabulate_2d n d (\i j -> f64.i64 ((i * 5 + j * 2) % 13 - 6)))

entry qnorms [n][m][d] (q: [m][d]f64) (mu: [d]f64) (xs: [n][d]f64) : [n]f64 =
  map (\x -> let v = map2 (-) x mu
             in f64.sum (map (\row -> let s = f64.sum (map2 (*) row v) in s * s) q)) xs
