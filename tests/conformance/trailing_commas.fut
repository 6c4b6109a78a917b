-- Trailing commas, unusual spacing, tabs-free layout, comments everywhere.
-- ==
-- input { 1 } output { 2 3 [1, 2,] }
def main (x: i32): (i32, i32, []i32) =
  let r = {a = x + 1, b = x + 2,} -- a trailing comma in a record
  -- comment before the result
  in ( r.a
     , r.b -- trailing comment
     , [1, 2,],
     )
