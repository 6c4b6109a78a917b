-- A size-lifted type parameter may not be instantiated with a fully
-- lifted one, which may be a function.
-- ==
-- error: lifted-instantiation.*"f" is lifted and may be a functional type

def keep '~a (x: a) : a = x

def apply '^f (g: f) = keep g

def main (x: i32) = x
