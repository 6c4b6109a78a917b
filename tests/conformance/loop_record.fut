-- A loop whose state is a record, updated with `with`.
-- ==
-- input { 5 } output { 5 120 15 }
def main (n: i32) =
  let s = loop s = {i = 0, fact = 1, sum = 0} while s.i < n do
            let i = s.i + 1
            in s with i = i with fact = s.fact * i with sum = s.sum + i
  in (s.i, s.fact, s.sum)
