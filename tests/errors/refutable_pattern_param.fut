-- A function parameter pattern must be irrefutable.
-- ==
-- error: refutable-pattern
def f (true: bool) = 1
def main (b: bool) = f b
