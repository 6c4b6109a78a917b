-- Euclid's algorithm with a while loop and tuple state.
-- ==
-- input { 48 18 } output { 6 }
-- input { 17 5 } output { 1 }
def main (a: i32) (b: i32) =
  (loop (a, b) while b != 0 do (b, a % b)).0
