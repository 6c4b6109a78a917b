-- `in` may be omitted between consecutive lets.
-- ==
-- input { 2 } output { 12 }
def main (x: i32) =
  let a = x + 1
  let b = a * 2
  let c = b + a + x
  in c + 1
