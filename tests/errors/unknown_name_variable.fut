-- Use of an undefined variable.
-- ==
-- error: unknown-name
def main (x: i32) = x + y
