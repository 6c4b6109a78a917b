-- loop without `= init` on a tuple of variables.
-- ==
-- input { 1 0 } output { 8 3 }
def main (a: i32) (b: i32) =
  loop (a, b) for _i < 3 do (a * 2, b + 1)
