-- After sealing, `type u = t` is the abstract `t`: a plain `i32` is not a
-- `p.u`, even though the implementation defines both as `i32`.
-- ==
-- error: p.u|p.t

module type pair = { type t type u = t val get : t -> i32 }
module p : pair = { type t = i32 type u = i32 def get (x: t) = x * 2 }

entry main (x: i32) = p.get (x : p.u)
