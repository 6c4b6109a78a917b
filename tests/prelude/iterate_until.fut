-- iterate_until applies f until the predicate holds (possibly zero times).
-- ==
-- input { 27 } output { 1 }
-- input { 1 } output { 1 }
-- input { 6 } output { 1 }
def main (x: i32) =
  iterate_until (== 1) (\n -> if n % 2 == 0 then n / 2 else 3 * n + 1) x
