-- A size-lifted abstract type of a functor's parameter cannot be the
-- element type of an array.
-- ==
-- error: lifted-instantiation.*size-lifted type `P.a`

module F (P: {type~ a val f : i64 -> a}) = {
  def all (n: i64) = map P.f (iota n)
}
