-- A local function with several parameters and a return type.
-- ==
-- input { 2.0 3.0 } output { 13.0 }
def main (a: f64) (b: f64) =
  let sq_sum (x: f64) (y: f64) : f64 = x * x + y * y
  in sq_sum a b
