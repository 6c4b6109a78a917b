-- Field order in a record literal does not matter for its type.
-- ==
-- input { 3 4 } output { true }
def main (a: i32) (b: i32) =
  let r1: {x: i32, y: i32} = {y = b, x = a}
  let r2 = {x = a, y = b}
  in r1 == r2
