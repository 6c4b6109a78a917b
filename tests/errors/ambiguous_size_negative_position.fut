-- A size parameter used only inside a function-typed parameter must be
-- determined by the function argument.
-- ==
-- error: ambiguous-size.*Ambiguous size "k".*instantiated size parameter of "width"
def width [k] (probe: [k]f32 -> f32) : i64 = k
def main (x: f32) = width (\ys -> ys[0] + x)
