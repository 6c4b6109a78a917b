-- Records with many fields, punning in patterns, record update.
-- ==
-- input { 1 2 3 4 5 } output { 15 2 20 33 }
type big = {a: i32, b: i32, c: i32, d: i32, e: i32}
def total ({a, b, c, d, e}: big) = a + b + c + d + e
def main a b c d e =
  let r: big = {a, b, c, d, e}
  let s = total r
  let r2 = r with b = 20
  in (s, r.b, r2.b, total r2)
