-- Equality on tuples, records and arrays; constants from numeric modules.
-- ==
-- input { [1, 2] [1, 2] } output { true true true false true true }
def main (a: []i32) (b: []i32) =
  ( (1, 2.0) == (1, 2.0)
  , {x = 1, y = true} == {y = true, x = 1}
  , a == b
  , a != b
  , f64.isnan f64.nan && f64.inf >= f64.highest
  , i32.highest + 1 == i32.lowest )
