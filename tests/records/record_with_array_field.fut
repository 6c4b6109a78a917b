-- A record field holding an array; replacing it with `with` leaves the original intact.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] 3i64 [2, 4, 6] }
def main (xs: []i32) =
  let r = {data = xs, len = length xs}
  let r2 = r with data = map (* 2) r.data
  in (r.data, r.len, r2.data)
