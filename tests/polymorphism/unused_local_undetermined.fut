-- A local function that is never used may leave its types undetermined
-- (nothing fixes the element type of `as_array`); that is not an error.
-- ==
-- input { 7 } output { 8 }

entry main (x: i32) =
  let as_array (a, b, c) = [a, b, c]
  in x + 1
