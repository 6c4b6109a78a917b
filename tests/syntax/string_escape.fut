-- Escape sequences in string literals.
-- ==
-- input { } output { [97u8, 10u8, 98u8] }
def main : []u8 = "a\nb"
