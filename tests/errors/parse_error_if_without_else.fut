-- if without else.
-- ==
-- error: parse-error
def main (x: i32) = if x > 0 then 1
