-- A functor accepting any module with a `t` has the module type of one
-- that accepts only those with `t = i64`: its parameter is more general,
-- which is what contravariant matching allows.
-- ==
-- input { 41i64 } output { 42i64 }

module type has_t = {
  type t
  val x : t
}

module type holder = {
  module Inc: (X: has_t with t = i64) -> { val y : i64 }
}

module h : holder = {
  module Inc (X: has_t) = {
    def y = 1i64
  }
}

module five = { type t = i64 def x = 5i64 }
module r = h.Inc five

def main (n: i64) = n + r.y
