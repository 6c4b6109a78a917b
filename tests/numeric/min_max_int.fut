-- min and max on signed and unsigned integers (unsigned compare as unsigned).
-- ==
-- input { -3 7 200u8 100u8 } output { -3 7 100u8 200u8 }
-- input { 5 5 0u8 255u8 } output { 5 5 0u8 255u8 }
def main (a: i32) (b: i32) (c: u8) (d: u8) = (i32.min a b, i32.max a b, u8.min c d, u8.max c d)
