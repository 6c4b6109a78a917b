-- A recursive call inside a parallel map: d(0) = 0 and d(n) = 1 + d(0) + … + d(n-1),
-- so d(n) = 2^(n-1) for n >= 1.
-- ==
-- input { 0i64 } output { 0i64 }
-- input { 1i64 } output { 1i64 }
-- input { 5i64 } output { 16i64 }
-- input { 10i64 } output { 512i64 }

def d (n: i64) : i64 = if n == 0 then 0 else 1 + i64.sum (map d (iota n))

entry main (n: i64) = d n
