-- Record patterns in let and lambdas, renamed fields.
-- ==
-- input { 2 5 } output { 7 -3 10 }
def main (a: i32) (b: i32) =
  let r = {x = a, y = b}
  let {x, y} = r
  let {x = p, y = q} = r
  let f = \{x, y} -> x * y
  in (x + y, p - q, f r)
