-- Size-polymorphic recursion: each call is on an array of another size.
-- 1+…+10 = 55; the empty array sums to 0.
-- ==
-- input { [1i64,2i64,3i64,4i64,5i64,6i64,7i64,8i64,9i64,10i64] } output { 55i64 }
-- input { empty([0]i64) } output { 0i64 }
-- input { [7i64] } output { 7i64 }

def sum [n] (xs: [n]i64) : i64 =
  if n == 0 then 0
  else if n == 1 then xs[0]
  else let h = n / 2
       in sum (take h xs) + sum (drop h xs)

entry main (xs: []i64) = sum xs
