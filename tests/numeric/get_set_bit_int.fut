-- get_bit returns 0 or 1 as an i32; set_bit sets a bit to the given 0/1 value.
-- ==
-- input { 5 } output { 1 0 21 4 }
-- input { -1 } output { 1 1 -1 -2 }
def main (x: i32) = (i32.get_bit 0 x, i32.get_bit 31 x, i32.set_bit 4 x 1, i32.set_bit 0 x 0)
