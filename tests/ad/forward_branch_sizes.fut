-- Branches whose array results have a size the `if` binds (lowering makes
-- the size of `p[i]` and of a literal `[0, 0]` an existential size, checked
-- against the function's type after the branch): forward mode's zero
-- tangent for a constant branch has the branch's own size. A named
-- function (differentiated as a whole, by `jvp` of its call) and the same
-- inline. Linear functions, so the jvp is the function of the tangent.
-- ==
-- entry: rows_or_zero
-- input { [[1.0, -0.1], [2.0, 0.2], [-3.0, 4.0]] }
-- output { [[0.0, 0.0], [2.0, 0.2], [-3.0, 4.0]] }
-- entry: tuple_branch
-- input { [[1.0, -0.1], [-2.0, 0.2]] [0.5, 0.25] }
-- output { [[1.0, -0.1], [0.0, 0.0]] [0.5, 0.0] }

def first_zeroed [n] (p: [n][2]f64) : [n][2]f64 =
  tabulate n (\i -> if i > 0 then p[i] else [0.0, 0.0])

entry rows_or_zero [n] (p: [n][2]f64) : [n][2]f64 = jvp first_zeroed p p

def positive_rows [n] (p: [n][2]f64) (w: [n]f64) : ([n][2]f64, [n]f64) =
  unzip (map2 (\r x -> if r[0] > 0 then (r, x) else ([0.0, 0.0], 2.0)) p w)

entry tuple_branch [n] (p: [n][2]f64) (w: [n]f64) : ([n][2]f64, [n]f64) =
  let (_, (dp, dw)) = jvp2 (\(p, w) -> positive_rows p w) (p, w) (p, w)
  in (dp, dw)

-- The same checked against finite differences, a `match` among them.
-- ==
-- entry: branches
-- gradcheck input { [[1.0, -0.1], [2.0, 0.2], [-3.0, 4.0]] [0.5, -1.5, 2.0] }
entry branches [n] (p: [n][2]f64) (w: [n]f64) : ([n][2]f64, [n]f64) =
  let a = map (\r -> if r[0] > 0 then r else replicate 2 0.0) p
  let b = map2 (\r x -> match i64.f64 (f64.sgn x) case 1 -> map (* x) r case _ -> [1.0, x]) a w
  let (c, d) = positive_rows b w
  in (map2 (map2 (+)) (first_zeroed a) c, d)
