-- Grouped statistics: reduce_by_index with a tuple operator (count, sum,
-- max per bucket), hist, scatter_2d into a matrix, a user-defined
-- operator, backquoted functions, `loop while`, and arrays of sums.
-- ==
-- input { [0i64, 2, 0, 1, 2, 2] [1.5f32, 2f32, 3f32, -1f32, 4f32, 0.5f32] }
-- output { [2i32, 1, 3] [4.5f32, -1f32, 6.5f32] [3f32, -1f32, 4f32] [2i32, 1, 3] [[1i32, 0, 0], [0i32, 1, 0], [0i32, 0, 1]] 16i32 2i32 }

def (a: f32) |+| (b: f32) : f32 = f32.max a b

def both (a: (i32, f32, f32)) (b: (i32, f32, f32)) : (i32, f32, f32) =
  (a.0 + b.0, a.1 + b.1, a.2 |+| b.2)

type cell = #empty | #full i32

def count_full [n] (cs: [n]cell) : i32 =
  i32.sum (map (\c -> match c case #full _ -> 1 case #empty -> 0) cs)

def main [n] (keys: [n]i64) (vals: [n]f32) =
  let k = 3i64
  let stats =
    reduce_by_index (replicate k (0i32, 0f32, -f32.inf)) both (0, 0, -f32.inf) keys
                    (map (\v -> (1, v, v)) vals)
  let (cnt, sums, maxs) = unzip3 stats
  let h = hist (+) 0i32 k keys (replicate n 1)
  let eye = scatter_2d (replicate k (replicate k 0i32)) (map (\i -> (i, i)) (iota k)) (replicate k 1)
  let x = loop x = 1i32 while x < 10 do x `i32.max` (x * 2)
  let cells = map (\c -> if c > 1 then #full c else #empty) cnt
  in (cnt, sums, maxs, h, eye, x, count_full cells)
