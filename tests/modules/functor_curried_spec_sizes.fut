-- Every parameter of a curried specification gets implicit sizes: with
-- `type~ t = []i32`, `val (+^) : t -> t -> t` takes arrays of any two
-- lengths, also when a functor uses the operator of its parameter:
-- [3] ++ ([1] ++ [0]) ++ ([1] ++ [0]) has sum 5 and length 5.
-- ==
-- input { 3 } output { 5 5i64 }

module type S = {
  type~ t = []i32
  val g : i32 -> t
  val (+^) : t -> t -> t
}

module Join : S = {
  type~ t = []i32
  def g (x: i32) : t = [x]
  def (+^) (a: t) (b: t) : t = a ++ b
}

module Twice (P: S) = {
  type~ t = P.t
  def op (a: t) (b: t) : t = a P.+^ b P.+^ b
}

module T = Twice Join

entry main (x: i32) : (i32, i64) =
  let r = T.op (Join.g x) (Join.g 1 Join.+^ Join.g 0)
  in (i32.sum r, length r)
