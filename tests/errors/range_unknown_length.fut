-- A range with a stride other than the literal default has an unknown
-- length, which is not the declared result size.
-- ==
-- error: size-mismatch.*unknown length of range

def main (n: i64) : [n]i64 = 2..3..<n + 2
