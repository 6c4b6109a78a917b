-- A histogram: how many of the values x fall in each of k bins, the bin
-- of x being x mod k (the values are non-negative).
-- ==
-- nobench input { 5i64 [13727730i32, 13456958i32, 4493910i32, 7801286i32, 12442182i32,
--                       12068802i32, 12753641i32, 16587330i32, 12244251i32, 4280335i32] }
-- output { [4i32, 3i32, 2i32, 1i32, 0i32] }
-- notest input @ data/histogram-100000000.in

def main [n] (k: i64) (xs: [n]i32) : [k]i32 =
  hist (+) 0i32 k (map (\x -> i64.i32 x % k) xs) (replicate n 1i32)
