-- A higher-order function that maps its function argument over an array.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] [1, 4, 9] }
def on_all [n] (f: i32 -> i32) (xs: [n]i32) : [n]i32 = map f xs
def main (xs: []i32) = (on_all (+ 1) xs, on_all (\x -> x * x) xs)
