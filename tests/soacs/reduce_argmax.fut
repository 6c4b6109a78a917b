-- argmax with a tuple accumulator; ties are resolved towards the smallest index.
-- ==
-- input { [3, 7, 1, 7, 2] } output { 7 1i64 }
-- input { [-5] } output { -5 0i64 }
-- input { [4, 4, 4] } output { 4 0i64 }
-- input { empty([0]i32) } output { -2147483648 9223372036854775807i64 }
def argmax_op (v1: i32, i1: i64) (v2: i32, i2: i64) : (i32, i64) =
  if v1 > v2 then (v1, i1)
  else if v2 > v1 then (v2, i2)
  else if i1 < i2 then (v1, i1)
  else (v2, i2)

def main [n] (xs: [n]i32) =
  reduce argmax_op (i32.lowest, i64.highest) (zip xs (iota n))
