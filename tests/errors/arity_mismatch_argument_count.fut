-- Too many arguments: the message says how many the function takes.
-- ==
-- error: arity-mismatch.*takes 2 arguments, but is given 3
def add (x: i32) (y: i32) = x + y
def main (a: i32) = add a a a
