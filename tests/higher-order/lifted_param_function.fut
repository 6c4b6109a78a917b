-- A lifted type parameter ('^t) may stand for a function type.
-- ==
-- input { 3 } output { 7 }
def twice '^t (f: t -> t) (x: t) : t = f (f x)
def main (x: i32) = (twice (\h -> \y -> h (h y)) (\y -> y + 1)) x
