-- match on integer literals with a final catch-all binding.
-- ==
-- input { 0 } output { 100 }
-- input { 1 } output { 200 }
-- input { 9 } output { 9 }
def main (x: i32) =
  match x
  case 0 -> 100
  case 1 -> 200
  case y -> y
