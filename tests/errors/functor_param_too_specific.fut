-- A functor whose parameter must have `t = i64` does not have the module
-- type `(X: has_t) -> has_t`, which promises to accept any `t`: parameters
-- match contravariantly. (Once accepted, the mismatch surfaced only where
-- the functor was applied, to a module it was allowed to take.)
-- ==
-- error: module-mismatch.*requires `type Op.t = i64`

module type has_t = {
  type t
  val x : t
}

module type holder = {
  module Op: (X: has_t) -> has_t
}

module h : holder = {
  module Op (X: has_t with t = i64) : has_t = {
    type t = i64
    def x = X.x + 1
  }
}

def main = 0
