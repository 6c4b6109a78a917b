-- `hist_stream` with an operator that is not one primitive operator per
-- value runs as a sequential loop over the inputs, each write combining
-- the old element and the value by the operator. Expected values by hand.

type~ acc 't = intrinsics.acc t

def put [k] 't (a: *acc ([k]t)) (i: i64) (v: t) : *acc ([k]t) = intrinsics.acc_write a i v

-- The larger of two pairs by their first component, the smaller index on ties.
def larger (a: f32, i: i64) (b: f32, j: i64) =
  if a < b then (b, j) else if b < a then (a, i) else if j < i then (b, j) else (a, i)

-- Arg-max per class of the index mod 2: even indices hold 3, 1, 2 (the
-- largest, 3, at 0); odd ones 7, 7, 5 (7 at 1 and 3: the smaller index, 1).
-- The writes at 2 and -1 go nowhere.
-- ==
-- entry: argmax
-- input { [3f32, 7f32, 1f32, 7f32, 2f32, 5f32] }
-- output { [3f32, 7f32] [0i64, 1i64] }
entry argmax (xs: []f32) =
  intrinsics.hist_stream (replicate 2 (f32.lowest, -1i64)) larger (f32.lowest, -1)
    (\(a: *acc ([](f32, i64))) (i: i64) ->
       let a = put a 2 (100, i)
       let a = put a (-1) (100, i)
       in put a (i % 2) (xs[i], i))
    (indices xs)
  |> unzip

-- Each element written to both classes by a loop: both get the arg-max of
-- all, 7 at 1.
-- ==
-- entry: argmax_loop
-- input { [3f32, 7f32, 1f32, 7f32, 2f32, 5f32] }
-- output { [7f32, 7f32] [1i64, 1i64] }
entry argmax_loop (xs: []f32) =
  intrinsics.hist_stream (replicate 2 (f32.lowest, -1i64)) larger (f32.lowest, -1)
    (\(a: *acc ([](f32, i64))) (i: i64) ->
       loop a for k < 2 do put a ((i + k) % 2) (xs[i], i))
    (indices xs)
  |> unzip

-- Products of Gaussian integers (re, im) per class of the index mod 3,
-- from 1: class 0 gets 1+i and 1-i, (1+i)(1-i) = 2; class 1 gets 2 and 3,
-- 6; class 2 gets i.
-- ==
-- entry: complex
-- input { [1i64, 2i64, 0i64, 1i64, 3i64] [1i64, 0i64, 1i64, -1i64, 0i64] }
-- output { [2i64, 6i64, 0i64] [0i64, 0i64, 1i64] }
entry complex [n] (re: [n]i64) (im: [n]i64) =
  let mul (a: i64, b: i64) (c: i64, d: i64) = (a * c - b * d, a * d + b * c)
  in intrinsics.hist_stream (replicate 3 (1i64, 0i64)) mul (1, 0)
       (\(a: *acc ([](i64, i64))) (i: i64) -> put a (i % 3) (re[i], im[i]))
       (iota n)
     |> unzip

-- Rows, the one with the larger first element kept (the operator returns
-- one of its arguments, so the old row must be a copy before the update):
-- class 0 gets [1, 2] and [3, 4], class 1 [5, 6] and [0, 9].
-- ==
-- entry: rows
-- input { [[1, 2], [5, 6], [3, 4], [0, 9]] }
-- output { [[3, 4], [5, 6]] }
entry rows [n][m] (xss: [n][m]i32) =
  let pick (a: [m]i32) (b: [m]i32) : [m]i32 = if a[0] < b[0] then b else a
  in intrinsics.hist_stream (replicate 2 (replicate m i32.lowest)) pick (replicate m i32.lowest)
       (\(a: *intrinsics.acc ([][m]i32)) (i: i64) -> put a (i % 2) xss[i])
       (iota n)
