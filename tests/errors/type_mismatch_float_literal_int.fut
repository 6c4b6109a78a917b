-- A decimal literal cannot have an integer type.
-- ==
-- error: type-mismatch
def main : i32 = 1.5
