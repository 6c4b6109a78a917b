-- Record update with `with` inside a map over an array of records.
-- ==
-- input { [1.0, 2.0] [10.0, 20.0] } output { [1.0, 2.0] [11.0, 22.0] }
type r = {x: f64, y: f64}

def main [n] (xs: [n]f64) (ys: [n]f64) =
  let rs : [n]r = map2 (\x y -> {x, y}) xs ys
  let rs' = map (\(r: r) -> r with y = r.y + r.x) rs
  in (map (\(r: r) -> r.x) rs', map (\(r: r) -> r.y) rs')
