-- A strided range with zero stride is invalid at run time.
-- ==
-- input { 2i64 } output { [0i64, 2i64, 4i64] }
-- input { 0i64 } error: .
def main (s: i64) = 0..s..<5
