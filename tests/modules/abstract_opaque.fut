-- Outside a module sealed with a module type, a type the module type leaves
-- abstract is not its definition: an i64 is not a `counter.t`.
-- ==
-- error: type-mismatch.*counter.t

module type counter = {
  type t
  val zero : t
  val incr : t -> t
  val get : t -> i64
}

module counter : counter = {
  type t = i64
  def zero : t = 0
  def incr (c: t) : t = c + 1
  def get (c: t) : i64 = c
}

def main (x: i64) = counter.get (counter.incr x)
