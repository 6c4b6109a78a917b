-- Updating an array taken out of a record by a pattern.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 30] 3i64 }
def main (xs: []i32) =
  let r = {arr = copy xs, len = length xs}
  let {arr, len} = r
  let a = arr with [2] = 30
  in (a, len)
