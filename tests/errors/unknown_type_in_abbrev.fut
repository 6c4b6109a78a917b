-- A type abbreviation referring to an undefined type.
-- ==
-- error: unknown-type
type t = [3]bar
def main (x: i32) = x
