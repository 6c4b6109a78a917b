-- The arrows of a curried result are inputs too, and they must not be
-- functions.
-- ==
-- error: higher-order-entry
def main (x: i32) : (i32 -> i32) -> i32 = \f -> f x
