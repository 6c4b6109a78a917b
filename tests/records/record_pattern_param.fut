-- Record patterns in function parameters.
-- ==
-- input { 10 4 } output { 6 }
def diff ({hi, lo}: {hi: i32, lo: i32}) = hi - lo
def main (a: i32) (b: i32) = diff {lo = b, hi = a}
