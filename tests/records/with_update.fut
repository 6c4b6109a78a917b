-- Functional record update with `with`.
-- ==
-- input { 1 2 } output { 1 2 100 2 }
def main (a: i32) (b: i32) =
  let r = {x = a, y = b}
  let r2 = r with x = 100
  in (r.x, r.y, r2.x, r2.y)
