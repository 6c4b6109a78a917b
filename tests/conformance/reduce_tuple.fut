-- reduce with a tuple accumulator: index of the maximum element.
-- ==
-- input { [3, 9, 2, 9, 1] } output { 9 1i64 }
-- input { [-5, -2, -7] } output { -2 1i64 }
def argmax (xs: []i32) : (i32, i64) =
  let op (a: i32, i: i64) (b: i32, j: i64) =
    if a > b then (a, i)
    else if b > a then (b, j)
    else (a, i64.min i j)
  in reduce op (i32.lowest, -1) (zip xs (indices xs))

def main (xs: []i32) = argmax xs
