-- A let pattern on one constructor of a sum with several.
-- ==
-- error: refutable-pattern
type t = #a i32 | #b
def main (x: i32) =
  let v: t = #a x
  let #a y = v
  in y
