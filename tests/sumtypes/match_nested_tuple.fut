-- Nested tuple patterns with literals and wildcards; first matching case wins.
-- ==
-- input { 1 2 3 } output { 10 }
-- input { 1 5 3 } output { 20 }
-- input { 0 0 0 } output { 30 }
def main (a: i32) (b: i32) (c: i32) =
  match (a, (b, c))
  case (1, (2, _)) -> 10
  case (1, _) -> 20
  case _ -> 30
