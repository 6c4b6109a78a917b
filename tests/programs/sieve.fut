-- Sieve of Eratosthenes with a sequential loop over candidate primes and a parallel scatter
-- to cross out multiples; returns the primes below n and how many there are.
-- ==
-- input { 30i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] 10i64 }
-- input { 2i64 } output { empty([0]i64) 0i64 }
-- input { 1000i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] 168i64 }
def main (n: i64) =
  let is_prime = map (>= 2) (iota n)
  let is_prime =
    loop is_prime for p in 2..<n do
      if p * p < n && is_prime[p]
      then let m = (n - 1 - p * p) / p + 1
           let idxs = map (\k -> p * p + k * p) (iota m)
           in scatter is_prime idxs (replicate m false)
      else is_prime
  let ps = filter (\i -> is_prime[i]) (iota n)
  in (take (i64.min 10 (length ps)) ps, length ps)
