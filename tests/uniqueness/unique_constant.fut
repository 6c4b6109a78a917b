-- A top-level constant is shared by all its uses, so it cannot be unique.
-- ==
-- error: unique-constant

def zeros : *[]i32 = [0, 0]

def main (i: i64) = zeros[i]
