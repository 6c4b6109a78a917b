-- An anonymous parameter size that the body makes a product with a size
-- nothing determines (`unflatten` of a `[]t` parameter into rows of a
-- known count) gets a size parameter for that factor, as in Futhark, and
-- a call computes it from the argument's length.
-- ==
-- input { [1i64, 2i64] [1i64, 2i64, 3i64, 4i64, 5i64, 6i64] } output { [7i64, 17i64] }
-- input { [10i64, 20i64, 30i64] [1i64, 2i64, 3i64] } output { [11i64, 22i64, 33i64] }

def row_sums [k] (ks: [k]i64) (flat: []i64) =
  let rows = unflatten flat
  in map2 (\i row -> i + i64.sum row) ks rows

def main [k] (ks: [k]i64) (flat: []i64) = row_sums ks (flat :> [k * (length flat / k)]i64)
