-- A character that cannot start any token (outside a string).
-- ==
-- error: lexical-error
def main (x: i32) = x § 1
