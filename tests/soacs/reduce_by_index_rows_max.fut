-- reduce_by_index with array-valued buckets and i32.max, some indices out
-- of bounds (ignored), on inputs large enough to run in parallel.
-- Expected values from Python.
-- ==
-- input { 50000i64 } output { [[12i32, 16i32], [12i32, 16i32], [12i32, 16i32], [12i32, 16i32], [12i32, 16i32]] }
-- input { 3i64 } output { [[0i32, 0i32], [2i32, 14i32], [-1i32, -1i32], [1i32, 7i32], [-1i32, -1i32]] }
def main (n: i64) : [5][2]i32 =
  let is = map (\i -> let b = (i * 3) % 5 in if b == 4 && i % 2 == 0 then 5 else b) (iota n)
  let vs = map (\i -> [i32.i64 (i % 13), i32.i64 ((i * 7) % 17)]) (iota n)
  in reduce_by_index (replicate 5 (replicate 2 (-1))) (map2 i32.max) (replicate 2 i32.lowest) is vs
