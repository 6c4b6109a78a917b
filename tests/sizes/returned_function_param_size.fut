-- A returned function may take an array whose size is a parameter of the
-- definition, or one that its result also has (then it is existential).
-- ==
-- input { 3i64 } output { 3i64 6i64 }

def f (n: i64) = \(xs: [n]i32) -> length xs

def twice (n: i64) = \(xs: [n]i64) -> xs ++ xs

def main (n: i64) = (f n (replicate n 0i32), length (twice n (iota n)))
