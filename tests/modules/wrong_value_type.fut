-- A value whose type does not match its specification is rejected, also
-- when the module is the argument of a functor.
-- ==
-- error: Module type specifies `val x : i32`, but module provides `val x : f32`

module type has_x = { val x: i32 }

module use_x (P: has_x) = { def y = P.x + 1 }

module bad = use_x { def x = 1.5f32 }

def main = bad.y
