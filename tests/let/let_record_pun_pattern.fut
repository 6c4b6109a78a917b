-- Record pattern with punning binds fields as variables.
-- ==
-- input { 2 7 } output { 5 }
def main (a: i32) (b: i32) =
  let {lo, hi} = {hi = b, lo = a}
  in hi - lo
