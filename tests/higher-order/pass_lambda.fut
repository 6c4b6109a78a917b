-- Passing a lambda to a user-defined higher-order function.
-- ==
-- input { 5 } output { 26 }
def apply (f: i32 -> i32) (x: i32) = f x
def main (x: i32) = apply (\y -> y * y + 1) x
