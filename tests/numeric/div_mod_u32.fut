-- Unsigned division and remainder on u32: all four operators agree.
-- ==
-- input { 4294967295u32 2u32 } output { 2147483647u32 1u32 2147483647u32 1u32 }
-- input { 4294967295u32 4294967295u32 } output { 1u32 0u32 1u32 0u32 }
-- input { 10u32 3u32 } output { 3u32 1u32 3u32 1u32 }
def main (a: u32) (b: u32) = (a / b, a % b, a // b, a %% b)
