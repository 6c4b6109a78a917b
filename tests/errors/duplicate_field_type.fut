-- A record type with the same field twice.
-- ==
-- error: duplicate-field
type t = {a: i32, a: f32}
def main (x: i32) = x
