-- `let [n][m]` binds existential sizes without a space between the binders,
-- outermost dimension first.
-- ==
-- input { 2i64 } output { 2i64 3i64 [[0, 0, 0], [0, 0, 0]] }
-- input { 0i64 } output { 0i64 1i64 empty([0][1]i32) }
def grid (k: i64) : ?[a][b].[a][b]i32 = replicate k (replicate (k + 1) 0)

def main (k: i64) =
  let [n][m] (g: [n][m]i32) = grid k
  in (n, m, g)
