-- A functor's body is checked where the functor is defined, with the
-- parameter's abstract types distinct from every other type, even if the
-- functor is never applied.
-- ==
-- error: type-mismatch.*P.t

module F (P: {type t val x : t}) = {
  def y : i32 = P.x + 1
}

def main = 0i32
