-- Histogram of decimal digits over all numbers in the input, computed by expanding each
-- number into a fixed 10 digit positions and ignoring leading zeros via an out-of-bounds bin.
-- ==
-- input { [123, 405, 7, 0] } output { [2, 1, 1, 1, 1, 1, 0, 1, 0, 0] }
def digits (x: i32) : [10]i64 =
  tabulate 10 (\k ->
    let p = 10 ** i32.i64 k
    in if x == 0 && k == 0 then 0
       else if x < p then -1
       else i64.i32 ((x / p) % 10))

def main (xs: []i32) =
  let ds = flatten (map digits xs)
  in hist (+) 0 10 ds (map (const 1) ds)
