-- The declared return type propagates into literals in the body.
-- ==
-- input { } output { [1i8, 2i8, 3i8] }
def main : []i8 = [1, 2, 3]
