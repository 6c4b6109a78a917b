-- Higher-order functions: compose, curry, functions as arguments and results.
-- ==
-- input { [1, 2, 3] } output { [4, 6, 8] [3, 5, 7] 14 }
def compose 'a 'b 'c (f: b -> c) (g: a -> b) : a -> c = \x -> f (g x)
def apply_n (n: i32) (f: i32 -> i32) (x: i32) = loop x for _i < n do f x
def adder (k: i32) : i32 -> i32 = (+ k)
def main (xs: []i32) =
  let h = compose (* 2) (+ 1)
  let g = (adder 1) <-< (* 2)
  in (map h xs, map g xs, apply_n 3 (adder 4) 2)
