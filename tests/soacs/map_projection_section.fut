-- Projection sections (.field) passed to map over arrays of records and tuples.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [2, 4, 6] }
def main (xs: []i32) =
  let rs : [](i32, i32) = map (\x -> (x, 2 * x)) xs
  let qs : []{v: i32} = map (\x -> {v = 2 * x}) xs
  in (map (.0) rs, map (.v) qs)
