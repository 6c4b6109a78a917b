-- `with [i] = v` updates one element of a fresh array.
-- ==
-- input { 3i64 } output { [0i64, 100i64, 2i64] }
def main (n: i64) = iota n with [1] = 100
