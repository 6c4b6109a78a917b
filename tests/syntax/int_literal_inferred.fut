-- An unsuffixed integer literal takes the type of the other operand.
-- ==
-- input { 10u8 5i64 } output { 13u8 8i64 }
def main (a: u8) (b: i64) = (a + 3, b + 3)
