-- Functors: application to a named module and to an anonymous structure,
-- a functor with two parameters, partial application, `with` refinement,
-- and a functor whose result is sealed by a module type.
-- ==
-- input { [1, 2, 3, 4] } output { 10 20 2.5 8 true }

module type monoid = {
  type t
  val op: t -> t -> t
  val ne: t
}

module fold (M: monoid) = {
  def all [n] (xs: [n]M.t) : M.t = reduce M.op M.ne xs
}

module add : monoid with t = i32 = {
  type t = i32
  def op (x: i32) (y: i32) = x + y
  def ne = 0i32
}

module sum = fold add
module fsum = fold { type t = f64 def op (a: f64) (b: f64) = a + b def ne = 0f64 }

-- A functor of two modules: the pairwise product monoid.
module pair (A: monoid) (B: monoid) : monoid with t = (A.t, B.t) = {
  type t = (A.t, B.t)
  def op ((a1, b1): t) ((a2, b2): t) : t = (A.op a1 a2, B.op b1 b2)
  def ne : t = (A.ne, B.ne)
}

module max_m = { type t = i32 def op = i32.max def ne = i32.lowest }
module with_add = pair add
module both = with_add max_m
module fold_both = fold both

def main (xs: []i32) =
  let (s, m) = fold_both.all (map (\x -> (x, x)) xs)
  in (sum.all xs, 2 * sum.all xs, fsum.all [1.0, 1.5], s - m + 2 * 2 - 2, m == 4)
