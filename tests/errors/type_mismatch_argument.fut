-- An argument of the wrong type.
-- ==
-- error: type-mismatch
def f (x: f32) = x * 2
def main (x: i32) = f x
