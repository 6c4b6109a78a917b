-- A top-level function may not be generalised over a type compared with ==.
-- ==
-- error: equality-not-supported
def differ a b = a != b
def main (x: i32) = differ x 1
