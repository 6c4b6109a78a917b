-- Only an abstract type can be refined with `with`, once.
-- ==
-- error: invalid-refinement.*"u" is not an abstract type

module type mt = {type t type u = i32}
module type mt2 = mt with u = i32
