-- Integer remainder (all forms) by zero is a run-time error.
-- ==
-- input { 7i64 0i64 } error: division by zero
-- input { 7i64 3i64 } output { 1i64 1i64 }
def main (a: i64) (b: i64) = (a % b, a %% b)
