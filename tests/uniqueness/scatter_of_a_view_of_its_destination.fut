-- The values a scatter writes are computed from a view of its destination
-- (`reverse xs`). Fusing the map into the scatter would read `xs` while
-- the scatter overwrites it in place (the first writes would show in the
-- later reads), so the map is left alone: every value is read first.
-- ==
-- input { true [1, 2, 3, 4] } output { [6, 5, 4, 3] }
-- input { false [1, 2, 3, 4] } output { [3, 4, 5, 6] }
-- input { true empty([0]i32) } output { empty([0]i32) }

def main [n] (b: bool) (xs: *[n]i32) =
  let vals = map (+ 2) (if b then reverse xs else xs)
  in scatter xs (iota n) vals
