-- A module sealed with an abstract size-parameterised type is itself an
-- argument for a functor that asks for that signature: its type
-- `bag [n]`, already abstract, uses `n` as a size argument, which counts
-- as using it constructively.
-- ==
-- input { [1i64, -2i64, 3i64] } output { 4i64 2i64 }
-- input { empty([0]i64) } output { 0i64 0i64 }

module type bag = {
  type~ bag [n]
  val from_array [u] : [u]i64 -> ?[n].bag [n]
  val total [n] : bag [n] -> i64
  val count [n] : bag [n] -> i64
}

module positive_bag : bag = {
  type~ bag [n] = {xs: [n]i64}
  def from_array [u] (xs: [u]i64) = {xs = filter (> 0) xs}
  def total [n] (b: bag [n]) = i64.sum b.xs
  def count [n] (b: bag [n]) = n
}

module use_bag (B: bag) = {
  def run (xs: []i64) =
    let b = B.from_array xs
    in (B.total b, B.count b)
}

module again = positive_bag
module m = use_bag again

entry main (xs: []i64) = m.run xs
