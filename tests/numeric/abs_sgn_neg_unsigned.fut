-- abs, sgn and neg on unsigned integers: abs is the identity, neg wraps.
-- ==
-- input { 200u8 } output { 200u8 1u8 56u8 }
-- input { 0u8 } output { 0u8 0u8 0u8 }
-- input { 1u8 } output { 1u8 1u8 255u8 }
def main (x: u8) = (u8.abs x, u8.sgn x, u8.neg x)
