-- let a[i] = v is sugar for let a = a with [i] = v.
-- ==
-- input { [5, 6, 7] } output { [5, 60, 70] }
def main (a: *[]i32) =
  let a[1] = 60
  let a[2] = 70
  in a
