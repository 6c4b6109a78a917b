-- Ranges over a non-default integer type.
-- ==
-- input { 1u8 4u8 } output { [1u8, 2u8, 3u8, 4u8] }
def main (a: u8) (b: u8) = a...b
