-- Operator names bound as parameters, in functions and lambdas.
-- ==
-- entry: combine
-- input { 6 7 } output { 42 13 }
def apply_op (+) (x: i32) (y: i32) : i32 = x + y

entry combine (x: i32) (y: i32) = (apply_op (*) x y, apply_op (+) x y)

-- With a type ascription, and used through a section.
-- ==
-- entry: sorted_by
-- input { [1, 3, 2] } output { false true }
def is_sorted_by [n] ((<=): i32 -> i32 -> bool) (xs: [n]i32) : bool =
  and (map (\i -> xs[i] <= xs[i + 1]) (iota (n - 1)))

entry sorted_by (xs: []i32) =
  (is_sorted_by (<=) xs, is_sorted_by (\a b -> a != b) xs)

-- ==
-- entry: lambda_op
-- input { [1, 2, 3] } output { [2, 4, 6] }
entry lambda_op (xs: []i32) = (\(++) -> map (\x -> x ++ x) xs) (+)
