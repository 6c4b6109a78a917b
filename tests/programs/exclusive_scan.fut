-- A user-defined exclusive scan (there is no need for a prelude one), used to compute
-- offsets for packing variable-length rows.
-- ==
-- input { [3i64, 0i64, 2i64, 5i64] } output { [0i64, 3i64, 3i64, 5i64] 10i64 }
-- input { empty([0]i64) } output { empty([0]i64) 0i64 }
def exscan [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a) : [n]a =
  map2 (\i x -> if i == 0 then ne else x) (iota n) (rotate (-1) (scan op ne xs))

def main [n] (lens: [n]i64) =
  let offs = exscan (+) 0 lens
  in (offs, if n == 0 then 0 else offs[n - 1] + lens[n - 1])
