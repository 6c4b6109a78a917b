-- A size written with operator sections is the same size wherever it is
-- written the same way over the same names.
-- ==
-- input { [1i64, 2i64, 3i64] } output { 6i64 9i64 }
-- input { empty([0]i64) } output { 0i64 0i64 }
def total [n] (xs: [n]i64) : [reduce (+) 0 xs]i64 =
  iota (reduce (+) 0 xs)

def shifted [n] (xs: [n]i64) : [i64.sum (map (+ 1) xs)]i64 =
  iota (i64.sum (map (+ 1) xs))

def main (xs: []i64) = (length (total (map (\x -> x) xs)), length (shifted xs))
