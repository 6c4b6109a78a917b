-- A type abbreviation applied to the wrong number of arguments.
-- ==
-- error: arity-mismatch
type pair 'a = (a, a)
def f (p: pair i32 f32) = p.0
def main (x: i32) = x
