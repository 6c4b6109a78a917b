-- The array comes first here, so its size must be bound with `let` before
-- the application; then the lambda's type is fine.
-- ==
-- input { [3, -1, 2, -5] } output { 2i64 }

def apply [n] (xs: [n]i32) (f: [n]i32 -> i64) : i64 = f xs

def main (ys: []i32) =
  let pos = filter (> 0) ys
  in apply pos (\zs -> length zs)
