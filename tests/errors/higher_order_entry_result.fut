-- An entry point cannot return a function.
-- ==
-- error: higher-order-entry
def main (x: i32) : i32 -> i32 = \y -> x + y
