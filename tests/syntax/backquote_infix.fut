-- A function name in backquotes is an infix operator with the lowest binary precedence.
-- ==
-- input { } output { 14 15 }
def add3 (a: i32) (b: i32) = a + 3 * b
def main = (2 `add3` 4, 1 + 2 `add3` 4)
