-- Each ascription makes new abstract types: sealing the same module twice
-- gives two types that are not interchangeable.
-- ==
-- error: a.t.*b.t|b.t.*a.t

module type has_t = {
  type t
  val mk : i32 -> t
  val get : t -> i32
}

module impl = {
  type t = i32
  def mk (x: i32) : t = x
  def get (x: t) : i32 = x
}

module a : has_t = impl
module b : has_t = impl

def main (x: i32) = b.get (a.mk x)
