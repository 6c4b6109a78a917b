-- Call of an undefined function.
-- ==
-- error: unknown-name
def main (x: i32) = frobnicate x
