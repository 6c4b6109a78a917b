-- Operator sections, backquoted functions and pipelines across lines.
-- ==
-- input { [1, 2, 3, 4, 5] } output { 21 [true, false, true, false, true] 3 }
def plus (a: i32) (b: i32) = a + b
def main (xs: []i32) =
  let s = xs
          |> map (* 2)       -- double
          -- a comment between lines
          |> map (`plus` (-1))
          |> filter (> 3)
          |> reduce (+) 0
  let odd = map ((== 1) <-< (% 2)) xs
  let c = 1 `plus` 2
  in (s, odd, c)
