-- Euclid's algorithm with a while loop, mapped over pairs; lcm derived from gcd.
-- ==
-- input { [12, 17, 0, 100, 1071] [18, 5, 7, 75, 462] }
-- output { [6, 1, 7, 25, 21] [36, 85, 0, 300, 23562] }
def gcd (a: i32) (b: i32) : i32 =
  let (a, _) = loop (a, b) while b != 0 do (b, a % b)
  in a

def main [n] (as: [n]i32) (bs: [n]i32) =
  let gs = map2 gcd as bs
  in (gs, map3 (\a b g -> if g == 0 then 0 else a / g * b) as bs gs)
