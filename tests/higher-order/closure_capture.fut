-- Lambdas capture variables, including arrays, from their scope.
-- ==
-- input { [10, 20, 30] [2i64, 0i64] } output { [30, 10] }
def main (table: []i32) (is: []i64) =
  map (\i -> table[i]) is
