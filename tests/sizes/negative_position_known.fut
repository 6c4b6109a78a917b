-- A size used only inside a function parameter is fine when the argument fixes it.
-- ==
-- input { 2f32 } output { 4i64 }
def width [k] (probe: [k]f32 -> f32) : i64 = k
def main (x: f32) = width (\(ys: [4]f32) -> ys[0] + x)
