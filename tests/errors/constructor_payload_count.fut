-- A constructor applied to two payloads where its type declares one
-- (`#apply #const 100` is `#apply` with payloads `#const` and `100`).
-- ==
-- error: constructor `#apply` taking 2 payloads
type op = #neg | #const i32
type t = #apply op | #none
def f (x: i32) : t =
  match x
  case 0 -> #apply #const 100
  case _ -> #none
def main (x: i32) = f x == #none
