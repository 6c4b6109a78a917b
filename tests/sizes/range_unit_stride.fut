-- A range with the default stride written out from a literal start
-- (`0..1..<n`, `1..2...n`) has the size of the same range without it; a
-- downward range's length is unknown, so it needs a size coercion.
-- ==
-- input { [1i64, 2i64, 3i64] } output { [1i64, 4i64, 7i64] [4i64, 4i64, 4i64] [2i64, 4i64, 6i64] }

def evens [n] (xs: [n]i64) = map2 (+) xs (map (\j -> j * 2) (0..1..<n))

def down [n] (xs: [n]i64) = map2 (+) xs (n..n-1..>0 :> [n]i64)

def ones [n] (xs: [n]i64) = map2 (+) xs (1..2...n)

def main (xs: []i64) = (evens xs, down xs, ones xs)
