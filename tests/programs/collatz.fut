-- Collatz sequence lengths (steps to reach 1) computed with a while loop inside a map,
-- and the starting value below a bound with the longest sequence.
-- ==
-- input { 10i64 } output { [0, 1, 7, 2, 5, 8, 16, 3, 19, 6] 9i64 19 }
-- input { 1000i64 } output { [0, 1, 7, 2, 5, 8, 16, 3, 19, 6] 871i64 178 }
def collatz_len (x: i64) : i32 =
  let (_, s) = loop (x, s) = (x, 0) while x != 1 do
                 (if x % 2 == 0 then x / 2 else 3 * x + 1, s + 1)
  in s

def main (n: i64) =
  let lens = map (\i -> collatz_len (i + 1)) (iota n)
  let (best_len, best) =
    reduce (\(l1, i1) (l2, i2) -> if l1 > l2 || (l1 == l2 && i1 < i2) then (l1, i1) else (l2, i2))
           (-1, 0) (zip lens (map (+ 1) (iota n)))
  in (take 10 lens, best, best_len)
