-- Arrays of units may have many dimensions (sizes used as phantom types):
-- a rank-12 array of units, whose outer dimension is zero, still has all
-- its sizes.
-- ==
-- input { 2i64 3i64 } output { 0i64 2i64 3i64 }

type tagged [a] [b] = [0][a][b][1][1][1][1][1][1][1][1][1]()

def mk (a: i64) (b: i64) : tagged [a] [b] = []

def sizes [a] [b] (_: tagged [a] [b]) = (0i64, a, b)

entry main (a: i64) (b: i64) = sizes (mk a b)
