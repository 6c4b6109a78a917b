-- Sieve with in-place updates, scan and filter.
-- ==
-- input { 30i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] 10i64 }
def main (n: i64) =
  let is_prime = replicate n true with [0] = false with [1] = false
  let is_prime = loop is_prime for i < n do
    if i >= 2 && is_prime[i] && i*i < n
    then loop is_prime for j in (i*i)..(i*i+i)..<n do is_prime with [j] = false
    else is_prime
  let ps = filter (\i -> is_prime[i]) (iota n)
  let counts = scan (+) 0 (map (\b -> if b then 1i64 else 0) is_prime)
  in (ps, counts[n-1])
