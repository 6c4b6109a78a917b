-- A value seen through a module type has the type of its specification:
-- a polymorphic definition sealed at a concrete type is monomorphic
-- outside, and type parameters are matched however they are named.
-- ==
-- input { [1.5f32, 2.5f32] 7 } output { [1.5f32, 2.5f32] 7 4.0f32 }

module type kernels = {
  type t
  val dup [n] : [n]t -> *[n]t
  val first 'a : a -> t -> a
  val total [n] : [n]t -> t
}

module kernels_of (R: real) : kernels with t = R.t = {
  type t = R.t
  def dup = copy
  def first 'b 'c (x: b) (_: c) = x
  def total = R.sum
}

module k32 = kernels_of f32

entry main (xs: []f32) (i: i32) = (k32.dup xs, k32.first i xs[0], k32.total xs)
