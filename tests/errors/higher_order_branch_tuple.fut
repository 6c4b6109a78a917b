-- The branches return pairs whose second component turns out (after the
-- `if` has been checked) to be a function.
-- ==
-- error: higher-order-branch.*if-results may not be of function type

entry main (b: bool) (x: i32) : i32 =
  let choose = \p q -> if b then p else q
  let (_, f) = choose (1i32, \(y: i32) -> y + 1) (2i32, \(y: i32) -> y * 2)
  in f x
