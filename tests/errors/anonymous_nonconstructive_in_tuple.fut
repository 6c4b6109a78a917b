-- An anonymous size in the parameter of a function type inside a type
-- abbreviation: nothing could ever determine it.
-- ==
-- error: anonymous-nonconstructive.*anonymous size not used constructively

type^ sel = (i32, []f32 -> f32)

def main (x: i32) = x
