-- A downward range has an unknown length, even with the default stride.
-- ==
-- error: size-mismatch.*unknown length of range

def main (n: i64) : [n]i64 = n..n-1..>0
