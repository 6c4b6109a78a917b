-- Integer division by zero is a run-time error.
-- ==
-- input { 7 0 } error: division by zero
-- input { 7 7 } output { 1 }
def main (a: i32) (b: i32) = a / b
