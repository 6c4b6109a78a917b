-- Character and string escapes.
-- ==
-- input { } output { 10u8 9u8 [97u8, 10u8, 34u8, 92u8] 39u8 }
def main : (u8, u8, []u8, u8) = ('\n', '\t', "a\n\"\\", '\'')
