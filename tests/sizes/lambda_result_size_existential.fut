-- The companions of errors/def_function_type_same_anonymous.fut that
-- type-check: a result of two anonymous sizes is existential, each its own
-- size, so a lambda whose result sizes name its parameter fits it; and a
-- lambda whose result has the declared outer size fits a square type.
-- ==
-- entry: rect
-- input { 2i64 } output { [[0i64, 1i64, 2i64, 3i64], [1i64, 2i64, 3i64, 4i64], [2i64, 3i64, 4i64, 5i64]] }
-- ==
-- entry: square3
-- input { 1i64 } output { [[1i64, 2i64, 3i64], [2i64, 3i64, 4i64], [3i64, 4i64, 5i64]] }

type square [n] 't = [n][n]t

def ext_rect : i64 -> [][]i64 = \n -> tabulate_2d (n + 1) (n + 2) (\i j -> i + j)

def sq3 : i64 -> square [3] i64 = \k -> tabulate_2d 3 3 (\i j -> i + j + k)

entry rect (n: i64) = ext_rect n

entry square3 (k: i64) = sq3 k
