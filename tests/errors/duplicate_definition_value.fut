-- Two top-level definitions of one name in one file.
-- ==
-- error: duplicate-definition.*Duplicate definition of name "twice"
def twice (x: i32) = x * 2
def twice (x: i32) = x + x
def main (a: i32) = twice a
