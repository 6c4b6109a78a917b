-- Values of sum types can be compared with ==.
-- ==
-- input { 3 } output { true false false }
type t = #num i32 | #nothing
def main (x: i32) =
  let a: t = #num x
  in (a == #num 3, a == #num 4, a == #nothing)
