-- Reverse mode differentiates a program's own accumulators (from
-- `scatter_stream` or `hist_stream`) whose function writes once per
-- element, at the top of its body, as a map followed by a scatter or a
-- histogram; not yet one that writes twice: differentiating it is an
-- error naming the construct, not a wrong adjoint.
-- ==
-- error: not-supported-yet
def twice [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       let acc = intrinsics.acc_write acc (i % m) xs[i]
       in intrinsics.acc_write acc ((i + 1) % m) (xs[i] * xs[i]))
    (iota n)

def main [n][m] (d: [m]f64) (xs: [n]f64) = vjp (twice d) xs (copy d)
