-- A type name defined twice in one file.
-- ==
-- error: duplicate-definition.*type "point"
type point = (f32, f32)
type point = {x: f32, y: f32}
def main (x: f32) : f32 = x
