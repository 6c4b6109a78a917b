-- Multiplication binds tighter than addition; - and / are left associative.
-- ==
-- input { } output { 7 9 3 2 }
def main = (1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3, 100 / 10 / 5)
