-- A size that is not a polynomial (`n / 2`, `m ** 2`) equals the same
-- expression over the same variables, as in Futhark, and takes part in
-- size arithmetic: `n/2*2` unflattens into `[n/2][2]`.
-- ==
-- input { [1, 2, 3, 4, 5] 3i64 } output { [1, 2] [[1, 2], [3, 4]] 9i64 }

def halve [n] (xs: [n]i32) : [n/2]i32 = take (n / 2) xs

def square (m: i64) : [m ** 2]i64 =
  let g (ys: [m ** 2]i64) = ys
  in g (iota (m ** 2))

def main [n] (xs: [n]i32) (m: i64) =
  let h = halve xs
  let pairs = unflatten (take (n / 2 * 2) xs)
  in (h, pairs, length (square m))
