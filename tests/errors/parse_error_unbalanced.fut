-- Unbalanced parentheses.
-- ==
-- error: parse-error
def main (x: i32) = (x + (1 * 2)
