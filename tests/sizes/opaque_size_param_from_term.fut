-- A size parameter that only a non-polynomial size determines (`n` in
-- `[(n-1)/nb+1]`) is found by matching the argument's size term by term,
-- and the body can use it. Blocks of 8: 17 bits need 3 blocks, whose
-- last is marked 7; the others are incremented from 0.
-- ==
-- input { 17i64 } output { [1u8, 1u8, 7u8] }
-- input { 1i64 } output { [7u8] }
-- input { 8i64 } output { [7u8] }
-- input { 9i64 } output { [1u8, 7u8] }

def nb : i64 = 8

def mark_last [n] (s: [(n-1)/nb+1]u8) : [(n-1)/nb+1]u8 =
  let l = (n - 1) / nb + 1
  in copy s with [l-1] = 7

def bump [n] (s: [(n-1)/nb+1]u8) : [(n-1)/nb+1]u8 =
  map (+ 1) s |> mark_last

def empty (n: i64) : [(n-1)/nb+1]u8 = replicate ((n - 1) / nb + 1) 0

def main (c: i64) = bump (empty c)
