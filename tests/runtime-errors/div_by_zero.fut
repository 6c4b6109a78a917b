-- Integer division by zero is a run-time error.
-- ==
-- input { 7 2 } output { 3 }
-- input { 7 0 } error: division by zero
def main (a: i32) (b: i32) = a / b
