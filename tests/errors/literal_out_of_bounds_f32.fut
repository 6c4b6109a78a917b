-- A float literal too large for f32 would become infinite.
-- ==
-- error: literal-out-of-bounds.*out of bounds.*f32
def main (x: f32) = x + 3.5e39
