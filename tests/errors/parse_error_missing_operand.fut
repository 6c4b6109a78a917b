-- A binary operator without its right operand.
-- ==
-- error: parse-error
def main (x: i32) = x +
