-- Unicode in comments is fine: λx → x², ∑ᵢ aᵢ, “quotes”, 日本語.
-- ==
-- input { [1, 2] } output { 5 [104u8, 195u8, 169u8] }

-- | Sum of squares (∑ x²).
def main (xs: []i32) = (reduce (+) 0 (map (\x -> x * x) xs), "hé") -- ✓
