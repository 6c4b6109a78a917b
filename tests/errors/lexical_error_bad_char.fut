-- A character that cannot start any token.
-- ==
-- error: lexical-error
def main (x: i32) = x @ 1
