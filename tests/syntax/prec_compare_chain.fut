-- Comparison operators are left associative at one level: (1 < 2) == b.
-- ==
-- input { true } output { true }
-- input { false } output { false }
def main (b: bool) = 1 < 2 == b
