-- Local functions with size parameters, used at several types and sizes.
-- ==
-- input { [1, 2, 3] [true, false] } output { [3, 2, 1] [false, true] 5i64 }
def main (xs: []i32) (bs: []bool) =
  let rev [n] 't (a: [n]t) : [n]t = a[::-1]
  let len [n] 't (_: [n]t) = n
  in (rev xs, rev bs, len xs + len bs)
