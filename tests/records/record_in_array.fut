-- Arrays of records, built with map and consumed with projection sections.
-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] 6 }
def main (xs: []i32) =
  let rs = map (\x -> {orig = x, dbl = x * 2}) xs
  in (map (.dbl) rs, i32.sum (map (.orig) rs))
