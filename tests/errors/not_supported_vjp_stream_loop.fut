-- What reverse mode still rejects: an accumulator the program makes
-- itself (here with `scatter_stream`) whose function updates it inside
-- a loop whose trip count differs from element to element. (Updates at
-- the top of the function, chains of them, updates in the branches of an
-- `if` and in loops of one trip count are differentiated:
-- tests/ad/reverse_streams.fut, tests/ad/reverse_stream_branches.fut.)
-- ==
-- error: not-supported-yet
def spread [n][m] (d: [m]f64) (xs: [n]f64) (ks: [n]i64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < ks[i] do intrinsics.acc_write acc ((i + j) % m) xs[i])
    (iota n)
def main [n][m] (d: [m]f64) (xs: [n]f64) (ks: [n]i64) = vjp (\xs -> spread d xs ks) xs (copy d)
