-- A named parameter used in the size of a later parameter makes the
-- function dependent: the argument given for it is substituted.
-- ==
-- input { 3i64 } output { 6i64 9i64 }

def count (n: i64) (xs: [n]i32) = n + length xs

def blocks (b: i64) (k: i64) (xss: [k][b][b]i32) : i64 = k * b

def main (w: i64) = (count w (replicate w 0), blocks w w (replicate w (replicate w (replicate w 0))) / w * w)
