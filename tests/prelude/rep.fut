-- rep is replicate with the size taken from the context.
-- ==
-- input { [1, 2, 3] } output { [8, 10, 12] }
def main [n] (xs: [n]i32) = map2 (+) xs (rep 3) |> map (* 2)
