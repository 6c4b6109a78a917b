-- A range whose second element is one step from the first (`0..1..<n`,
-- `n..n-1..>0`) has the size of the same range without it.
-- ==
-- input { [1i64, 2i64, 3i64] } output { [1i64, 4i64, 7i64] [4i64, 4i64, 4i64] }

def evens [n] (xs: [n]i64) = map2 (+) xs (map (\j -> j * 2) (0..1..<n))

def down [n] (xs: [n]i64) = map2 (+) xs (n..n-1..>0)

def main (xs: []i64) = (evens xs, down xs)
