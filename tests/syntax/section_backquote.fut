-- Sections of backquoted functions, left and right.
-- ==
-- input { [1, 7, 3] } output { [5, 7, 5] [1, 5, 3] }
def maxi (a: i32) (b: i32) = if a > b then a else b
def mini (a: i32) (b: i32) = if a < b then a else b
def main (xs: []i32) = (map (`maxi` 5) xs, map (5 `mini`) xs)
