-- A tuple has no field .2 when it has only two components.
-- ==
-- error: unknown-field
def main (a: i32) = (a, a).2
