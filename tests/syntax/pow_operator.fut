-- ** binds tighter than * and is left associative (per the precedence table).
-- ==
-- input { } output { 18 64 8.0 }
def main = (2 * 3 ** 2, 2 ** 3 ** 2, 2.0 ** 3.0)
