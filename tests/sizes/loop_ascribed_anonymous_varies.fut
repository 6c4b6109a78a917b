-- An anonymous size in a loop parameter's type may vary, and a named one
-- beside it stays fixed: `acc` keeps `n` columns while its rows grow.
-- ==
-- input { 2i64 [1i32, 2i32] }
-- output { [[1i32, 2i32], [1i32, 2i32], [1i32, 2i32], [1i32, 2i32]] }

def main (k: i64) (row: []i32) : [][]i32 =
  let n = length row
  in loop (acc: [][n]i32) = [row] for _i < k do acc ++ acc
