-- `with t = i64` keeps the type transparent: the module's values are used
-- at their definition's type. (3 + 1) * 2 = 8.
-- ==
-- input { 3i64 } output { 8i64 }

module type counter = {
  type t
  val incr : t -> t
  val double : t -> t
}

module counter : counter with t = i64 = {
  type t = i64
  def incr (c: t) : t = c + 1
  def double (c: t) : t = c * 2
}

def main (x: i64) : i64 = counter.double (counter.incr x)
