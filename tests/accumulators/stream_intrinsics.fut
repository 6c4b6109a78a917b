-- The accumulator intrinsics: `scatter_stream dest f bs` runs `f acc b`
-- for every `b`, each `acc_write acc i v` writing `v` at `i` of `dest`
-- (out-of-bounds indices ignored); `hist_stream dest op ne f bs` combines
-- each write with the element by `op`. Expected values by hand.

type~ acc 't = intrinsics.acc t

def put [k] 't (a: *acc ([k]t)) (i: i64) (v: t) : *acc ([k]t) = intrinsics.acc_write a i v

-- i·10 at 2i and -i at 2i+1, and writes at -1 and 100 that go nowhere.
-- ==
-- entry: pairs
-- input { [9, 9, 9, 9, 9, 9, 9, 9, 9] }
-- output { [0, 0, 10, -1, 20, -2, 30, -3, 9] }
entry pairs (xs: *[]i32) =
  intrinsics.scatter_stream xs
    (\(a: *acc ([]i32)) (i: i64) ->
       let a = put a (2 * i) (i32.i64 i * 10)
       let a = put a (-1) 7
       let a = put a 100 7
       in put a (2 * i + 1) (-(i32.i64 i)))
    (iota 4)

-- Colliding sums: i added at i mod 3 for i < 5: 100 + 0 + 3, 200 + 1 + 4,
-- 300 + 2.
-- ==
-- entry: sums
-- input { [100i64, 200i64, 300i64] }
-- output { [103i64, 205i64, 302i64] }
entry sums (xs: *[]i64) =
  intrinsics.hist_stream xs (+) 0 (\(a: *acc ([]i64)) (i: i64) -> put a (i % 3) i) (iota 5)

-- The least of each class mod 3, starting from 50: 7 at 1 (7), 60, 3 and
-- 42 at 0 (3), nothing at 2.
-- ==
-- entry: least
-- input { [7i64, 60i64, 3i64, 42i64] }
-- output { [3i64, 7i64, 50i64] }
entry least (vs: []i64) =
  intrinsics.hist_stream (replicate 3 50) i64.min i64.highest (\(a: *acc ([]i64)) (v: i64) -> put a (v % 3) v) vs

-- Rows added elementwise: [i, 10i] into row i mod 2 for i < 3: row 0 gets
-- [0, 0] and [2, 20], row 1 [1, 10].
-- ==
-- entry: rows
-- input { [[1, 1], [2, 2]] }
-- output { [[3, 21], [3, 12]] }
entry rows [m] (xss: *[][m]i32) =
  intrinsics.hist_stream xss (map2 (+)) (replicate m 0)
    (\(a: *acc ([][m]i32)) (i: i64) -> put a (i % 2) ([i32.i64 i, 10 * i32.i64 i] :> [m]i32))
    (iota 3)

-- Pairs combined componentwise, by + and by *: (i, i + 1) into i mod 2 for
-- i < 3: (1 + 0 + 2, 10·1·3) and (2 + 1, 20·2).
-- ==
-- entry: tuples
-- input { [1, 2] [10, 20] }
-- output { [3, 3] [30, 40] }
entry tuples [n] (xs: *[n]i32) (ys: *[n]i32) =
  let op (a, b) (c, d) = (a + c, b * d)
  in intrinsics.hist_stream (zip xs ys) op (0, 1)
       (\(a: *acc ([](i32, i32))) (i: i64) -> put a (i % 2) (i32.i64 i, i32.i64 i + 1))
       (iota 3)
     |> unzip

-- The operator a top-level function on pairs, which calls another: (i, i +
-- 1) into i mod 2 for i < 3, combined by max and by +: (max 1 0 2, 10 + 1
-- + 3) and (max 2 1, 20 + 2).
-- ==
-- entry: named_operator
-- input { [1, 2] [10, 20] }
-- output { [2, 2] [14, 22] }
def plus (x: i32) (y: i32) = x + y
def max_plus (a: i32, b: i32) (c: i32, d: i32) = (i32.max a c, plus b d)

entry named_operator [n] (xs: *[n]i32) (ys: *[n]i32) =
  intrinsics.hist_stream (zip xs ys) max_plus (i32.lowest, 0)
    (\(a: *acc ([](i32, i32))) (i: i64) -> put a (i % 2) (i32.i64 i, i32.i64 i + 1))
    (iota 3)
  |> unzip

-- The accumulator through a loop and a branch: with b, 1 is added at i
-- and 2 at i + 1 (i < 3); without, only the 2s.
-- ==
-- entry: branches
-- input { true [0, 0, 0, 0, 0] }
-- output { [1, 3, 3, 2, 0] }
-- input { false [0, 0, 0, 0, 0] }
-- output { [0, 2, 2, 2, 0] }
entry branches (b: bool) (xs: *[]i32) =
  let f (a: *acc ([]i32)) (i: i64) =
    let a = if b then put a i 1 else a
    in loop a for j < 1 do put a (i + 1 + j) 2
  in intrinsics.hist_stream xs (+) 0 f (iota 3)

-- Inside a map: each row gets its own scatter (i at 2i, for i < 2).
-- ==
-- entry: per_row
-- input { 3i64 }
-- output { [[0, 5, 1, 5], [0, 6, 1, 6], [0, 7, 1, 7]] }
entry per_row (n: i64) =
  tabulate n (\r ->
                intrinsics.scatter_stream (replicate 4 (5 + i32.i64 r))
                  (\(a: *acc ([]i32)) (i: i64) -> put a (2 * i) (i32.i64 i))
                  (iota 2))

-- A function that writes nothing leaves the array as it was.
-- ==
-- entry: untouched
-- input { [4, 5, 6] }
-- output { [4, 5, 6] }
entry untouched (xs: *[]i32) = intrinsics.scatter_stream xs (\(a: *acc ([]i32)) (_: i64) -> a) (iota 10)
