-- One type parameter name twice.
-- ==
-- error: duplicate-binding.*Type parameter "t" previously defined
def pick 't 't (x: t) = x
def main (a: i32) = pick a
