-- Attributes on expressions and a while loop with a complex condition.
-- ==
-- input { [1, 2, 3, 4] } output { [2, 4, 6, 8] 3i64 }
def main (xs: []i32) =
  let ys = #[sequential] map (* 2) xs
  let i = loop i = 0i64 while i < length ys && ys[i] < 7 do i + 1
  in (ys, i)
