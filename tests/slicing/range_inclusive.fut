-- The inclusive range 1...5.
-- ==
-- input { } output { [1, 2, 3, 4, 5] }
def main = 1...5
