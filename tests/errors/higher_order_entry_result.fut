-- An entry point cannot return a function, even inside a tuple.
-- ==
-- error: higher-order-entry
def main (x: i32) : (i32, i32 -> i32) = (x, \y -> x + y)
