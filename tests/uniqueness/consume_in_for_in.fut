-- A consuming function applied to the loop state for each element.
-- ==
-- input { [3i64, 1i64, 3i64, 0i64] 4i64 } output { [1i64, 1i64, 0i64, 2i64] }

def bump (counts: *[]i64) (k: i64) : *[]i64 = counts with [k] = counts[k] + 1

def main (ks: []i64) (n: i64) =
  loop counts = replicate n 0 for k in ks do bump counts k
