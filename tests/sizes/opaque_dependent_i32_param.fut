-- Named parameters of type i32 in a dependent type (`(r: i32) -> (c: i32)
-- -> [i64.i32 r * i64.i32 c]t -> …`): applied to arguments, the sizes are
-- those of the arguments, and `unflatten` computes `i64.i32 r` from the
-- i32 value. 2 rows of 3, then 3 rows of 2.
-- ==
-- input { 2 3 [1, 2, 3, 4, 5, 6] } output { 2i64 3i64 [[1, 2, 3], [4, 5, 6]] }
-- input { 3 2 [1, 2, 3, 4, 5, 6] } output { 3i64 2i64 [[1, 2], [3, 4], [5, 6]] }
-- input { 4 2 [1, 2, 3, 4, 5, 6] } error: .

def rows 't (r: i32) (c: i32) (xs: [i64.i32 r * i64.i32 c]t) : [i64.i32 r][i64.i32 c]t =
  unflatten xs

def main (r: i32) (c: i32) (xs: []i32) =
  let [a][b] (m: [a][b]i32) = rows r c (xs :> [i64.i32 r * i64.i32 c]i32)
  in (a, b, m)
