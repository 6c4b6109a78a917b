-- Two parameters with the same name.
-- ==
-- error: duplicate-binding
def f (x: i32) (x: i32) = x
def main (a: i32) = f a a
