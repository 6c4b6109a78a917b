-- A value that would have to be an array of itself.
-- ==
-- error: occurs-check
def f x = [x] == x
def main (y: i32) = y
