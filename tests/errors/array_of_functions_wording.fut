-- The message names the function type of the elements, in Futhark's words.
-- ==
-- error: array-of-functions.*Cannot create array with elements of lifted type .*i64 -> i64.*functional
def inc (x: i64) = x + 1
def dec (x: i64) = x - 1
def main (i: i64) = [inc, dec]
