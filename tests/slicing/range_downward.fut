-- The downward exclusive range 5..>0.
-- ==
-- input { } output { [5, 4, 3, 2, 1] }
def main = 5..>0
