-- kmeans.fut with the centroid sums flattened, as programs without
-- array-valued operators write them: `reduce_by_index` over k*d scalar
-- buckets, with the bucket of coordinate j of a point in cluster c at
-- c*d + j. The middle end fuses the flattened index and value arrays into
-- the histogram, so neither n*d array is built.
-- ==
-- nobench input {
--   2i64 [[0.598068178f32, 0.397396684f32], [0.119916037f32, 0.959296584f32],
--         [0.257193714f32, 0.564476192f32], [0.640632987f32, 0.956420004f32],
--         [0.669721484f32, 0.393118292f32], [0.448343426f32, 0.159728423f32],
--         [0.965768516f32, 0.991715729f32], [0.221721858f32, 0.0386316702f32]] }
-- output { [[0.526802838f32, 0.424177855f32], [0.380274504f32, 0.957858324f32]] }
-- nobench input { 2i64 [[0f32, 0f32], [0f32, 0f32], [1f32, 1f32], [0.5f32, 0.25f32]] }
-- output { [[0.375f32, 0.3125f32], [0f32, 0f32]] }
-- notest input @ data/kmeans-1000000.in

def dist [d] (p: [d]f32) (c: [d]f32) : f32 =
  f32.sum (map2 (\x y -> (x - y) * (x - y)) p c)

def main [n][d] (k: i64) (points: [n][d]f32) : [k][d]f32 =
  let centres = take k points
  let closest (p: [d]f32) : i64 =
    let (best, _) =
      loop (best, best_d) = (0i64, f32.inf) for c < k do
        let dc = dist p centres[c]
        in if dc < best_d then (c, dc) else (best, best_d)
    in best
  let membership = map closest points
  let counts = hist (+) 0i32 k membership (replicate n 1i32)
  let buckets = flatten (map (\c -> map (\j -> c * d + j) (iota d)) membership)
  let sums = reduce_by_index (replicate (k * d) 0f32) (+) 0f32 buckets (flatten points)
             |> unflatten
  in tabulate_2d k d (\c j ->
       if counts[c] == 0 then centres[c, j] else sums[c, j] / f32.i32 counts[c])
