-- Type ascription on an expression fixes overloaded literals.
-- ==
-- input { } output { 3u64 2.0f32 }
def main = (1 + 2 : u64, (2 : f32))
