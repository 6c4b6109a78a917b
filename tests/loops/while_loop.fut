-- while loop: number of Collatz steps.
-- ==
-- input { 27 } output { 111 }
-- input { 6 } output { 8 }
-- input { 1 } output { 0 }
def main (n: i32) =
  let (_, steps) =
    loop (x, c) = (n, 0) while x != 1 do
      if x % 2 == 0 then (x / 2, c + 1) else (3 * x + 1, c + 1)
  in steps
