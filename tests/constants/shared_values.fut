-- Top-level constants are program constants: computed once when the
-- program starts, and shared by every use, in every entry point and in
-- functions called from maps. Records of arrays, sizes from `filter`,
-- and arrays that a use updates (a copy is updated, the constant is not).
-- ==
-- entry: lookup
-- input { 3i64 } output { 9i64 30i64 2i64 }
-- input { 0i64 } output { 0i64 30i64 2i64 }

-- ==
-- entry: shifted
-- input { [1i64, 2i64, 3i64] } output { [31i64, 32i64, 33i64] }

-- ==
-- entry: updated
-- input { 5i64 } output { [5i64, 1i64, 4i64, 9i64, 16i64] [0i64, 1i64, 4i64, 9i64, 16i64] }

-- ==
-- entry: squares_again
-- input { } output { [0i64, 1i64, 4i64, 9i64, 16i64] }

-- ==
-- entry: evens_total
-- input { 1i64 } output { 21i64 }

def squares = map (\i -> i * i) (iota 5)

-- 0 + 1 + 4 + 9 + 16 = 30.
def total : i64 = reduce (+) 0 squares

def pair = {xs = squares, n = total}

-- [0, 4, 16]: three elements, a size known only when the program runs.
def evens = filter (\x -> x % 2 == 0) squares

def add_total (x: i64) = x + pair.n

entry lookup (i: i64) = (squares[i], total, length evens - 1)

entry shifted (xs: []i64) = map add_total xs

entry updated (v: i64) =
  let ys = copy squares with [0] = v
  in (ys, copy squares)

-- An entry point without parameters returns (a copy of) the constant.
entry squares_again = squares

-- 1 + 0 + 4 + 16 = 21.
entry evens_total (k: i64) = k + reduce (+) 0 evens
