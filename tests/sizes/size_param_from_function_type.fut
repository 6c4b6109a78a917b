-- A size parameter that only the type of a function argument mentions
-- (`[n]i32 -> i32`) is the size the caller instantiated it at: here the
-- existential size of a `filter` evaluated before the function is used,
-- through `|>` or as the argument of the partial application.
-- ==
-- input { [1, -2, 3] } output { 20i64 20i64 }
-- input { [-1] } output { 0i64 0i64 }
-- input { [5, 6, 7, 8] } output { 40i64 40i64 }

def times_ten [n] (_: [n]i32 -> i32) : [n]i32 -> i64 =
  let m = n * 10
  in \_ -> m

def main (xs: []i32) =
  let a = filter (> 0) xs |> times_ten (\_ -> 0)
  let b = (times_ten (\_ -> 1)) (filter (> 0) xs)
  in (a, b)
