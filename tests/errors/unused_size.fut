-- A size parameter that appears in no parameter type.
-- ==
-- error: unused-size
def f [n] (x: i32) : i32 = x
def main (x: i32) = f x
