-- A size written with a functor parameter's value (`P.n / 2`) in the body
-- is the same size as `n / 2` in the parameter's specification. With
-- n = 5, each row has 5 / 2 = 2 elements.
-- ==
-- input { [1i64, 2i64] } output { [[1i64, 1i64], [2i64, 2i64]] }

module F (P: {val n : i64 val halves : i64 -> [n / 2]i64}) = {
  def rows [m] (xs: [m]i64) : [m][P.n / 2]i64 = map P.halves xs
}

module M = F {
  def n : i64 = 5
  def halves (x: i64) = replicate (n / 2) x
}

def main (xs: []i64) = M.rows xs
