-- A size parameter written only inside a polynomial is solved from the
-- argument's length once the others are known: `[n + m]` with `m` given
-- by the instantiation (`?k + n` matched term by term, as Futhark does),
-- `[n * m]` with `n` given by another argument.
-- ==
-- input { [1, -2, 3] } output { 2i64 3i64 }
-- input { [-1, -2] } output { 0i64 2i64 }

def parts [n] [m] 't (_: [n + m]t) = (n, m)

def main [n] (xs: [n]i32) =
  parts (let pos = filter (> 0) xs
         in pos ++ xs)

-- ==
-- entry: cols
-- input { [true, false] [1, 2, 3, 4, 5, 6] } output { 3i64 }
-- input { [true, false, true] [1, 2, 3] } output { 1i64 }
-- input { empty([0]bool) empty([0]i32) } output { 0i64 }

def width [n] [m] (_: [n]bool) (_: [n * m]i32) = m

entry cols [n] [l] (flags: [n]bool) (xs: [l]i32) = width flags (xs :> [n * (l / i64.max n 1)]i32)
