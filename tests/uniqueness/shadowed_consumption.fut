-- An inner `a` shadows the outer one; updating it leaves the outer `a` intact.
-- ==
-- input { 3i64 } output { 5i64 [0i64, 1i64, 2i64] }

def main (n: i64) =
  let a = iota n
  let r =
    let (a, b) = (replicate n 0i64, a)
    let a[0] = 5
    in a[0] + b[0]
  in (r, a)
