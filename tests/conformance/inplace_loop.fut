-- In-place updates in a loop: a sieve of Eratosthenes.
-- ==
-- input { 20i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64] }
def main (n: i64) =
  let is_prime = replicate n true
  let is_prime = is_prime with [0] = false with [1] = false
  let is_prime =
    loop is_prime for i < n do
      if i >= 2 && is_prime[i] && i * i < n then
        loop is_prime for j in (i*i..i*i+i..<n) do is_prime with [j] = false
      else is_prime
  in filter (\i -> is_prime[i]) (iota n)
