-- A histogram whose operator combines (row, scalar) pairs and reads the
-- first accumulator again for its second result: (a₁, b₁) ⊙ (a₂, b₂) =
-- (a₁ + a₂, b₁ + b₂ + Σa₁·Σa₂) (associative and commutative: b collects
-- the products of the row sums of every pair). The compiled backends
-- update the destination in place, so the second result must see a₁
-- before the first result overwrote it. Bucket 0 (from zeros) gets rows
-- [1,2] and [3,4]: a = [4,6], b = 3·7 = 21; bucket 1 starts from [1,1]
-- and gets [2,5]: a = [3,6], b = 2·7 = 14.
-- ==
-- input { [0i64, 1i64, 0i64] [[1, 2], [2, 5], [3, 4]] }
-- output { [[4, 6], [3, 6]] [21, 14] }
def main [n] (is: [n]i64) (as: [n][2]i32) : ([2][2]i32, [2]i32) =
  let op (a1: [2]i32, b1: i32) (a2: [2]i32, b2: i32) =
    (map2 (+) a1 a2, b1 + b2 + i32.sum a1 * i32.sum a2)
  let dest = zip [[0, 0], [1, 1]] [0, 0]
  in unzip (reduce_by_index dest op ([0, 0], 0) is (zip as (replicate n 0)))
