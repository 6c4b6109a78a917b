-- A slice of a strided view is updated after copying.
-- ==
-- input { [1, 2, 3, 4, 5, 6] } output { [1, 3, 5] [0, 3, 5] }
def main (a: []i32) =
  let s = a[::2]
  let t = copy s with [0] = 0
  in (s, t)
