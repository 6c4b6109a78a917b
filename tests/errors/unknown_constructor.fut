-- A constructor that is not part of the ascribed sum type.
-- ==
-- error: unknown-constructor|type-mismatch
type t = #a | #b
def main (x: i32) =
  let v: t = #c
  in x
