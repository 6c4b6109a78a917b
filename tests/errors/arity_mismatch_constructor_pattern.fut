-- A constructor pattern with the wrong number of payload fields.
-- ==
-- error: arity-mismatch
type shape = #rect f64 f64 | #dot
def area (s: shape) : f64 =
  match s
  case #rect w -> w
  case #dot -> 0
def main (x: f64) = area (#rect x x)
