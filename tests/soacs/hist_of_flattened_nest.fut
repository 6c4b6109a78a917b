-- `reduce_by_index` over flattened bucket and value arrays, as k-means
-- without array-valued operators writes its centroid sums: coordinate j of
-- a point in cluster c goes to bucket c*d + j. The middle end runs the
-- bucket nest inside the histogram (tests/ir/fuse/through_flatten.ir); the
-- sums are those of the definition, worked out by hand: rows 0 and 2 are in
-- cluster 1 (buckets 2, 3), row 1 in cluster 0 (buckets 0, 1); a cluster
-- beyond the buckets adds nothing; rows of no columns add nothing.
-- ==
-- input { 4i64 [1i64, 0i64, 1i64] [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] }
-- output { [3f32, 4f32, 6f32, 8f32] }
-- input { 4i64 [2i64, 0i64] [[1f32, 2f32], [3f32, 4f32]] }
-- output { [3f32, 4f32, 0f32, 0f32] }
-- input { 3i64 [0i64, 1i64] empty([2][0]f32) }
-- output { [0f32, 0f32, 0f32] }
-- input { 2i64 empty([0]i64) empty([0][3]f32) }
-- output { [0f32, 0f32] }

def main [n][d] (k: i64) (clusters: [n]i64) (points: [n][d]f32) : [k]f32 =
  let buckets = flatten (map (\c -> map (\j -> c * d + j) (iota d)) clusters)
  in reduce_by_index (replicate k 0f32) (+) 0 buckets (flatten points)
