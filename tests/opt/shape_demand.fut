-- Seed 003's running example (its E3: `take`, `drop` and `shift`, where
-- `shift` pads with zeros) and its matrix-vector product with two
-- diagonals (E6), in Futhark. Where only the length of a result is used,
-- only lengths are computed: `shifted_length` calls a copy of `shift`
-- specialised to return its size, which builds no array and does not take
-- the array argument (crates/ogham-driver/tests/optimised_ir.rs checks
-- the optimised IR). The expected values are the seed's, checked by hand.
-- ==
-- entry: shifted
-- input { 2i64 [1, 2, 3, 4, 5] } output { [0, 0, 1, 2, 3] }
-- input { -2i64 [1, 2, 3, 4, 5] } output { [3, 4, 5, 0, 0] }
-- input { 0i64 [1, 2, 3, 4, 5] } output { [1, 2, 3, 4, 5] }
-- input { 5i64 [1, 2, 3, 4, 5] } output { [0, 0, 0, 0, 0] }
-- ==
-- entry: shifted_length
-- input { 2i64 [1, 2, 3, 4, 5] } output { 5i64 }
-- input { -1i64 [1, 2, 3] } output { 3i64 }
-- ==
-- entry: take_drop
-- input { [1, 2, 3, 4, 5] } output { [1, 2, 3] [3, 4, 5] [3, 4, 5] [1, 2, 3] }
-- ==
-- entry: two_diagonals_value
-- input { [1, 2, 3, 4, 5] [1, 2, 3] [5, 5, 5, 5, 5] } output { [5, 10, 20, 30, 40] }
-- ==
-- entry: two_diagonals_length
-- input { [1, 2, 3, 4, 5] [1, 2, 3] [5, 5, 5, 5, 5] } output { 5i64 }

-- The first `n` elements if `n` is positive, else the last `-n`.
def take_n (n: i64) (arr: []i32) : []i32 =
  let ofs = if n > 0 then 0 else length arr + n
  in tabulate (i64.abs n) (\i -> arr[i + ofs])

-- All but the first `n` elements if `n` is positive, else all but the last `-n`.
def drop_n (n: i64) (arr: []i32) : []i32 =
  if n > 0 then take_n (n - length arr) arr else take_n (length arr + n) arr

-- The elements moved `n` places right (left if `n` is negative), zeros in the gap.
def shift (n: i64) (arr: []i32) : []i32 =
  let pad = replicate (length (take_n n arr)) 0
  let xs = drop_n (-n) arr
  in if n > 0 then pad ++ xs else xs ++ pad

entry shifted (n: i64) (arr: []i32) = shift n arr

entry shifted_length (n: i64) (arr: []i32) = length (shift n arr)

entry take_drop (arr: []i32) = (take_n 3 arr, take_n (-3) arr, drop_n 2 arr, drop_n (-2) arr)

-- A product of a matrix with main diagonal `dm` and the diagonal `dl`
-- below it, `m` rows further down, with the vector `v`.
def two_diagonals [n] [m] (dm: [n]i32) (dl: [m]i32) (v: [n]i32) : [n]i32 =
  let main = map2 (*) dm v
  let lower = map2 (*) dl (take_n m v :> [m]i32)
  let zeros = replicate (n - m) 0
  in map2 (+) main (zeros ++ lower :> [n]i32)

entry two_diagonals_length [n] [m] (dm: [n]i32) (dl: [m]i32) (v: [n]i32) = length (two_diagonals dm dl v)

entry two_diagonals_value [n] [m] (dm: [n]i32) (dl: [m]i32) (v: [n]i32) = two_diagonals dm dl v
