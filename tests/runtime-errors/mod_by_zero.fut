-- Integer modulo by zero is a run-time error.
-- ==
-- input { 7i64 3i64 } output { 1i64 }
-- input { 7i64 0i64 } error: division by zero
def main (a: i64) (b: i64) = a % b
