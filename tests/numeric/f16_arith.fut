-- Basic f16 arithmetic with exactly representable values.
-- ==
-- input { 1.5f16 2.25f16 } output { 3.75f16 -0.75f16 3.375f16 0.6666667f16 }
-- input { -4f16 0.5f16 } output { -3.5f16 -4.5f16 -2f16 -8f16 }
def main (a: f16) (b: f16) = (a + b, a - b, a * b, a / b)
