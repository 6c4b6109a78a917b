-- Truncating division // and remainder %% by zero are run-time errors.
-- ==
-- input { -7 2 } output { -3 -1 }
-- input { -7 0 } error: division by zero
def main (a: i32) (b: i32) = (a // b, a %% b)
