-- A definition with size, type and value parameters and a return type ascription.
-- ==
-- input { [1, 2, 3, 4] 2i64 } output { [1, 2, 0, 0] }
def keep_prefix [n] 't (xs: [n]t) (k: i64) (fill: t) : [n]t =
  map2 (\x i -> if i < k then x else fill) xs (iota n)
def main (xs: []i32) (k: i64) = keep_prefix xs k 0
