-- while loops with tuple state and a collatz count.
-- ==
-- input { 27 } output { 111 }
-- input { 1 } output { 0 }
def collatz (n: i32) : i32 =
  let (_, steps) =
    loop (x, c) = (n, 0) while x != 1 do
      if x % 2 == 0 then (x / 2, c + 1) else (3 * x + 1, c + 1)
  in steps
def main (n: i32) = collatz n
