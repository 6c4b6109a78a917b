-- Binding to the wildcard _ discards the value.
-- ==
-- input { 5 } output { 5 }
def main (x: i32) =
  let _ = x * 100
  let (_, y) = (0, x)
  in y
