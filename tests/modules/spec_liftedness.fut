-- A module may not define a type more lifted than its module type allows.
-- ==
-- error: module-mismatch.*type\^ t.*non-lifted

module m : {type t} = {
  type^ t = i32 -> i32
}
