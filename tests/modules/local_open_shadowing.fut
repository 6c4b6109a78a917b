-- Inside `M.(e)` the module's names shadow local variables and top-level
-- definitions, operators included: a module that defines its own `+` can
-- still reach the `+` of its parameter, and `e` inside `T.(…)` or
-- `f64.(…)` is the constant e ≈ 2.718281828459045, not the module's or the
-- local `e`. Expected values: 1 - e + 6 and e / 40.
-- ==
-- input { 1.0 2.0 } output { 3.0 4.281718171540955 0.06795704571147613 }

module pairs (T: real) = {
  type pair = (T.t, T.t)
  def (+) ((a, b): pair) ((c, d): pair) : pair = T.((a + c, b + d))
  def e = T.i32 7
  def sub_with_e (x: T.t) = T.(x - e + i32 6)
}

module p = pairs f64

def main (x: f64) (y: f64) =
  let (s, _) = p.((x, y) + (y, x))
  let e = 100.0
  in (s, p.sub_with_e x, f64.(e / 40))
