-- Calling a function taken out of a sum type's payload is not supported
-- yet: a clear error, not an internal one.
-- ==
-- error: not-supported-yet.*sum type's payload

type^ op = #unary (i32 -> i32) | #constant i32

def run (p: op) =
  match p
  case #unary f -> f 2
  case #constant x -> x

def main = (run (#unary (+ 1)), run (#constant 1))
