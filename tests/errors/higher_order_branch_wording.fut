-- Futhark's wording for a function returned from an if-expression.
-- ==
-- error: higher-order-branch.*if-results may not be of function type
def main (b: bool) (y: f32) =
  let g = if b then (\(x: f32) -> x * 2f32) else (\(x: f32) -> x)
  in g y
