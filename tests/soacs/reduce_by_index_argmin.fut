-- reduce_by_index with a tuple operator: per-bin minimum value and the index where it occurs
-- (ties resolved towards the smaller index, so the operator is commutative).
-- ==
-- input { 3i64 [0i64, 1i64, 0i64, 1i64, 0i64] [4, 8, 2, 8, 2] }
-- output { [2, 8, 2147483647] [2i64, 1i64, -1i64] }
def minop (v1: i32, i1: i64) (v2: i32, i2: i64) : (i32, i64) =
  if v1 < v2 then (v1, i1)
  else if v2 < v1 then (v2, i2)
  else if i1 < 0 then (v2, i2)
  else if i2 < 0 then (v1, i1)
  else if i1 < i2 then (v1, i1) else (v2, i2)

def main [n] (k: i64) (bins: [n]i64) (vs: [n]i32) =
  unzip (reduce_by_index (replicate k (i32.highest, -1)) minop (i32.highest, -1)
                         bins (zip vs (iota n)))
