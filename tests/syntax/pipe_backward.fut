-- The <| operator is right associative: f <| g <| x = f (g x).
-- ==
-- input { 3 } output { 7 [0i64, 2i64, 4i64] }
def main (x: i32) = (i32.abs <| (\y -> y - 10) <| x, map (*2) <| iota 3)
