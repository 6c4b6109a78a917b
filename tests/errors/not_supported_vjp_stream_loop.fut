-- What reverse mode still rejects: an accumulator the program makes
-- itself (here with `scatter_stream`) whose function updates it inside
-- a loop. (Updates at the top of the function, chains of them, and
-- updates in the branches of an `if` are differentiated:
-- tests/ad/reverse_streams.fut, tests/ad/reverse_stream_branches.fut.)
-- ==
-- error: not-supported-yet
def spread [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < 2 do intrinsics.acc_write acc ((2 * i + j) % m) (xs[i] * f64.i64 (j + 1)))
    (iota n)
def main [n][m] (d: [m]f64) (xs: [n]f64) = vjp (spread d) xs (copy d)
