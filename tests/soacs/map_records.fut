-- Arrays of records: build them with map, then read fields.
-- ==
-- input { [1, 2, 3] } output { [3, 6, 9] [true, false, true] }
type point = {a: i32, b: i32, odd: bool}

def main (xs: []i32) =
  let ps : []point = map (\x -> {a = x, b = x * 2, odd = x % 2 == 1}) xs
  in (map (\(p: point) -> p.a + p.b) ps, map (\(p: point) -> p.odd) ps)
