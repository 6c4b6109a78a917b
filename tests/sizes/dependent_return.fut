-- A function type with a named parameter gives a dependent return size.
-- ==
-- input { 3i64 } output { [7, 7, 7] }
def apply_n (f: (k: i64) -> [k]i32) (n: i64) : [n]i32 = f n
def main (n: i64) = apply_n (\k -> replicate k 7) n
