-- A constructor whose payload is a record.
-- ==
-- input { 3 4 } output { 7 }
type ev = #pair {a: i32, b: i32} | #single i32
def main (x: i32) (y: i32) =
  match (#pair {a = x, b = y} : ev)
  case #pair {a, b} -> a + b
  case #single v -> v
