-- Definitions without parameters that are functions.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] 4 9 }
def inc_all [n] (xs: [n]i32) : [n]i32 = map (+ 1) xs
def sq : i32 -> i32 = \x -> x * x
def last_sq (xs: []i32) = sq (last xs)
def main (xs: []i32) = (inc_all xs, sq 2, last_sq xs)
