-- Projection sections (.0), (.1) and (.a.b).
-- ==
-- input { [1, 2] [3, 4] } output { [1, 2] [3, 4] [4, 6] }
def main [n] (xs: [n]i32) (ys: [n]i32) =
  let ps = zip xs ys
  let rs = map (\(x, y) -> {a = {b = x + y}}) ps
  in (map (.0) ps, map (.1) ps, map (.a.b) rs)
