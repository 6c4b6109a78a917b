-- Applying a functor does not hide the argument's types: the result's
-- values are used at the argument's types. The parameter's size value is
-- a size in the body's types. (x + 10) replicated P.n = 3 times sums to
-- 3 * (x + 10).
-- ==
-- input { 1i32 } output { 33i32 [11i32, 11i32, 11i32] }

module F (P: {type t val n : i64 val add : t -> t -> t val zero : t}) = {
  def spread (x: P.t) : [P.n]P.t = replicate P.n x
  def total (xs: [P.n]P.t) : P.t = reduce P.add P.zero xs
}

module M = F {
  type t = i32
  def n : i64 = 3
  def add (a: i32) (b: i32) = a + b
  def zero = 0i32
}

def main (x: i32) =
  let xs = M.spread (x + 10)
  in (M.total xs, xs)
