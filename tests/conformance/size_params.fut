-- Size parameters, explicit size binding in let and size coercion.
-- ==
-- input { [1, 2, 3, 4, 5, 6] } output { [[1, 2], [3, 4], [5, 6]] 3i64 }
def pairs [n] (xs: [n]i32) : [][2]i32 =
  let m = n / 2
  in unflatten (xs[:m * 2] :> [m * 2]i32)
def main (xs: []i32) =
  let ps = pairs xs
  let [k] (qs: [k][2]i32) = ps
  in (qs, k)
