-- A top-level value whose size is existential has one size, shared by all
-- its uses: a function's parameter typed from it and an array mapped from
-- it fit each other.
-- ==
-- input { 1i64 } output { [1i64, 5i64, 9i64, 13i64, 17i64] }
-- input { -2i64 } output { [-2i64, 2i64, 6i64, 10i64, 14i64] }

def evens = filter (\x -> x % 2 == 0) (iota 10)

def plus_evens ys = map2 (+) evens ys

def main (k: i64) = plus_evens (map (+ k) evens)
