-- A size parameter is usable as an i64 value in the body.
-- ==
-- input { [1, 2, 3] } output { 3i64 }
-- input { empty([0]i32) } output { 0i64 }
def len [n] (_: [n]i32) : i64 = n
def main (xs: []i32) = len xs
