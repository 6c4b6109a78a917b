-- A loop whose body reads an element of a differentiated free array in
-- one branch of an `if`: the return sweep adds to that array's adjoint in
-- place inside the branch, the other branch passing it through (it built
-- a zero array per iteration and added it to the adjoint: quadratic in
-- the length; crates/ogham-driver/tests/optimised_ir.rs counts).
-- f d = loop s = 0 for i < n do if i even then s + d[i] else 0.9 s, so
-- with n = 4, s = 0.81 d[0] + 0.9 d[2], and with n = 5, + d[4].
-- ==
-- entry: gradient
-- input { [1.0, 2.0, 3.0, 4.0] } output { [0.81, 0.0, 0.9, 0.0] }
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] } output { [0.81, 0.0, 0.9, 0.0, 1.0] }
-- input { empty([0]f64) } output { empty([0]f64) }

def f [n] (d: [n]f64) : f64 =
  loop s = 0 for i < n do if i % 2 == 0 then s + d[i] else s * 0.9

entry gradient [n] (d: [n]f64) : [n]f64 = vjp f d 1
