-- A function value used (not carried) inside a loop body.
-- ==
-- input { 4 } output { 81 }
def main (n: i32) =
  let f = \(x: i32) -> x * 3
  in loop acc = 1 for _i < n do f acc
