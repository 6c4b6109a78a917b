-- Row n of Pascal's triangle, computed by n sequential steps that each add the
-- row to itself shifted by one (with tabulate on a fixed-size buffer).
-- ==
-- entry: main
-- input { 6i64 } output { [1i64, 6i64, 15i64, 20i64, 15i64, 6i64, 1i64] }
-- input { 0i64 } output { [1i64] }

-- ==
-- entry: middle
-- input { 30i64 } output { 1i64 155117520i64 1i64 }
def row (n: i64) : [n + 1]i64 =
  let init = tabulate (n + 1) (\i -> if i == 0 then 1 else 0)
  in loop r = init for _k < n do
       tabulate (n + 1) (\i -> r[i] + (if i > 0 then r[i - 1] else 0))

entry main (n: i64) = row n

entry middle (n: i64) =
  let r = row n
  in (r[0], r[n / 2], r[n])
