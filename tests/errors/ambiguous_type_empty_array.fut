-- The element type of an empty array literal cannot be determined.
-- ==
-- error: ambiguous-type
def main : i64 = length []
