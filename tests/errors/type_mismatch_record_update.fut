-- A record update with a value of the wrong type names the field.
-- ==
-- error: type-mismatch.*Cannot update record field "pos.x"
def main (p: {pos: {x: f32, y: f32}}) = p with pos.x = true
