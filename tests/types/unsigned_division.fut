-- Division and remainder on unsigned integers.
-- ==
-- input { 250u8 7u8 } output { 35u8 5u8 }
def main (a: u8) (b: u8) = (a / b, a % b)
