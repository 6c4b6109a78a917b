-- f32 arithmetic really is single precision: 2^24 + 1 rounds back to 2^24 (ties to even),
-- so adding 1 three times changes nothing, while adding 2 does. Checked via to_bits.
-- ==
-- input { 16777216f32 1f32 } output { 1266679808u32 1266679808u32 1266679809u32 }
def main (a: f32) (b: f32) = (f32.to_bits (a + b), f32.to_bits (a + b + b + b), f32.to_bits (a + (b + b)))
