-- A lifted type parameter (`'^b`) may be instantiated with the result type
-- of a dependent function (`iota`), whose size each application chooses;
-- a definition keeping such a size in its type makes it existential.
-- ==
-- input { 2i64 3i64 } output { [0i64, 1i64] [0i64, 1i64, 2i64] [[true, true, true], [true, true, true]] }

def apply '^a '^b (f: a -> b) (x: a) : b = f x

def grid (n: i64) (m: i64) (b: bool) = replicate n (replicate m b)

def grid2 = uncurry grid

def main (n: i64) (m: i64) = (apply iota n, apply iota m, map id (grid2 (n, m) true))
