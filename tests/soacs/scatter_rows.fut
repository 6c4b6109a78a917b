-- scatter into a two-dimensional array writes whole rows: one index per
-- value, and the value is a row. A negative or too large index is
-- ignored. Into an array of rank three, one index writes a 2x1 block.
-- ==
-- input { [2i64, -1i64, 0i64] [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] }
-- output { [[5f32, 6f32], [0f32, 0f32], [1f32, 2f32]] }
-- input { [3i64] [[7f32, 8f32]] }
-- output { [[0f32, 0f32], [0f32, 0f32], [0f32, 0f32]] }

def main [k] (is: [k]i64) (rows: [k][2]f32) : [3][2]f32 =
  scatter (replicate 3 (replicate 2 0f32)) is rows

-- ==
-- entry: blocks
-- input { [1i64, 0i64] [[[1i32], [2i32]], [[3i32], [4i32]]] }
-- output { [[[3i32], [4i32]], [[1i32], [2i32]]] }
entry blocks [k] (is: [k]i64) (bs: [k][2][1]i32) : [2][2][1]i32 =
  scatter (replicate 2 (replicate 2 (replicate 1 0i32))) is bs
