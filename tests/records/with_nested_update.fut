-- Nested record update: r with a.b = v.
-- ==
-- input { 1 } output { 42 1 1 }
def main (v: i32) =
  let r = {a = {b = v, c = v}, d = v}
  let r2 = r with a.b = 42
  in (r2.a.b, r2.a.c, r2.d)
