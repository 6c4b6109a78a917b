-- Nested tuple and record patterns in let, with wildcards.
-- ==
-- input { 1 2 3 } output { 6 }
def main (a: i32) (b: i32) (c: i32) =
  let (x, {f = (y, _), g}) = (a, {f = (b, 99), g = c})
  in x + y + g
