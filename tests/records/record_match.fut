-- Matching on a record pattern with a literal field.
-- ==
-- input { 0 5 } output { 5 }
-- input { 1 5 } output { 10 }
def main (k: i32) (v: i32) =
  match {kind = k, val = v}
  case {kind = 0, val} -> val
  case {kind = _, val} -> val * 2
