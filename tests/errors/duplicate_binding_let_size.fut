-- A `let` may not bind a size and a variable of the same name.
-- ==
-- error: duplicate-binding.*"len" also bound
def main (xs: []i32) =
  let [len] (len: [len]i32) = filter (> 0) xs
  in length len
