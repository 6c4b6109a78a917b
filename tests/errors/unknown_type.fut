-- Use of an undefined type name.
-- ==
-- error: unknown-type
def main (x: foo) = x
