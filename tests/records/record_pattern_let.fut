-- Destructuring a record with a let pattern, with renaming and punning.
-- ==
-- input { 2 3 } output { 6 }
def main (a: i32) (b: i32) =
  let {x, y = z} = {x = a, y = b}
  in x * z
