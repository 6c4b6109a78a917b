-- Inside a functor, a value of a parameter's abstract type is not an
-- array, so a function of the body may return it: the application, where
-- the type is the argument's array type, is not rejected for aliasing a
-- top-level array (Futhark's checker tracks no aliases through a type
-- parameter either). A record of such values is returned too, as a
-- stateful optimiser's initial state would be.
-- ==
-- input { 5i32 }
-- output { [1.0f32, 2.0f32] 5i32 [1.0f32, 2.0f32] }

module type space = { type v val zero : v val add : v -> v -> v }

module vec2 = {
  type v = [2]f32
  def zero : v = [1, 2]
  def add (a: v) (b: v) : v = map2 (+) a b
}

module state (S: space) = {
  type t = {origin: S.v, steps: i32}
  def initial (n: i32) : t = {origin = S.zero, steps = n}
  def origin (_: i32) : S.v = S.zero
}

module st = state vec2

entry main (n: i32) =
  let s = st.initial n
  in (s.origin, s.steps, st.origin n)
