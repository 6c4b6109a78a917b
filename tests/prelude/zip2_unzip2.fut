-- zip2 and unzip2 are synonyms of zip and unzip.
-- ==
-- input { [1.5, 2.5] [7i64, 8i64] } output { [7i64, 8i64] [1.5, 2.5] }
def main [n] (xs: [n]f64) (ys: [n]i64) =
  let (a, b) = unzip2 (zip2 xs ys)
  in (b, a)
