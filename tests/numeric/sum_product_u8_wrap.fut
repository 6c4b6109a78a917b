-- u8.sum and u8.product wrap around; u8.maximum/minimum compare unsigned.
-- ==
-- input { [200u8, 100u8] } output { 44u8 32u8 200u8 100u8 }
-- input { [16u8, 16u8] } output { 32u8 0u8 16u8 16u8 }
-- input { empty([0]u8) } output { 0u8 1u8 0u8 255u8 }
def main (xs: []u8) = (u8.sum xs, u8.product xs, u8.maximum xs, u8.minimum xs)
