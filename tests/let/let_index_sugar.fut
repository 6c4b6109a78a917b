-- let a[i] = v on a fresh local array.
-- ==
-- input { 3i64 } output { [1, 0, 1] }
def main (n: i64) =
  let a = replicate n 1
  let a[1] = 0
  in a
