-- hist with multiplication on u32 (wrapping).
-- ==
-- input { [0i64, 0i64, 1i64, 1i64] [65536u32, 65536u32, 3u32, 5u32] } output { [0u32, 15u32] }
def main [n] (is: [n]i64) (vs: [n]u32) = hist (*) 1 2 is vs
