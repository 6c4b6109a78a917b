-- A constructor's payload may be a function, called after a `match`: the
-- function of each use is known, and the other constructor's case is
-- lowered with a placeholder that never runs. Signed `/` rounds down and
-- `%` takes the sign of the divisor: f (-1) = -1 + -1 + 1 = -1.
-- ==
-- input { 5i32 } output { 6i32 7i32 12i32 }
-- input { -1i32 } output { 0i32 7i32 -1i32 }

type^ op = #apply (i32 -> i32) | #const i32

def run (o: op) (x: i32) : i32 =
  match o
  case #apply f -> f x
  case #const c -> c

def twice (o: op) (x: i32) : i32 = run o (run o x)

def main (x: i32) = (run (#apply (+ 1)) x, run (#const 7) x, twice (#apply (\y -> y + y / 2 + y % 2)) x)
