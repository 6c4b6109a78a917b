-- Entry points whose result is a first-order function take the function's
-- arguments as further inputs, as if the parameters had been written out.
-- ==
-- entry: add_partial
-- input { 2 40 } output { 42 }
-- input { -1 1 } output { 0 }

def add (x: i32) (y: i32) = x + y

entry add_partial (x: i32) = add x

-- ==
-- entry: add_point_free
-- input { 5 6 } output { 11 }
entry add_point_free = add

-- ==
-- entry: lambda_result
-- input { 3 4 } output { 7 12 }
entry lambda_result (x: i32) : i32 -> (i32, i32) = \y -> (x + y, x * y)

-- ==
-- entry: three_arrows
-- input { 1 2 3i64 } output { [3, 3, 3] }
entry three_arrows : i32 -> i32 -> (k: i64) -> [k]i32 = \a b k -> replicate k (a + b)

-- A declared parameter named in the size of a curried input.
-- ==
-- entry: dependent
-- input { 2i64 [[1, 2], [3, 4], [5, 6]] } output { [3, 7, 11] }
-- input { 3i64 [[1, 2], [3, 4]] } error: .
entry dependent (m: i64) = map (\(xs: [m]i32) -> i32.sum xs)
