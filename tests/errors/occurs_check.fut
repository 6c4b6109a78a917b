-- Self-application requires an infinite type.
-- ==
-- error: occurs-check
def f x = x x
def main (y: i32) = y
