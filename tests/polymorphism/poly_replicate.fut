-- A polymorphic function building an array of its argument.
-- ==
-- input { 2i64 } output { [[7, 7], [7, 7]] }
def square 't (n: i64) (x: t) : [n][n]t = replicate n (replicate n x)
def main (n: i64) = square n 7i32
