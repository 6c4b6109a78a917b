-- `filter`'s result has an existential size `?k`; appending one element
-- gives `?k + 1`, which is not `?k`: zipping the two is a size error
-- (once, an existential size inside a sum swallowed the sum and this
-- compiled, zipping 3 elements with 4).
-- ==
-- error: size-mismatch.*do not match

def main (xs: []i32) =
  let ys = filter (> 0) xs
  let (_, b) = unzip (zip ys (ys ++ [1]))
  in b
