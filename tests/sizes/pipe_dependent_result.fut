-- `n |> iota` has the size of its argument, existential after the
-- application, so it pipes on into functions that take any array.
-- ==
-- input { 4 } output { [0i64, 1, 3, 6] }

def main (n: i32) = i64.i32 n |> iota |> map (+ 0) |> scan (+) 0
