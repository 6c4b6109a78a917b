-- Index and field sections, chained projections, array of records literal.
-- ==
-- input { [[1, 2], [3, 4]] } output { [2, 4] [10, 20] 3 [1, 3] }
def main (m: [][]i32) =
  let rs = [{a = {b = 10}}, {a = {b = 20}}]
  let first = (\r -> r.a) (rs[0])
  in (map (.[1]) m, map (.a.b) rs, first.b - 7, m[:, 0])
