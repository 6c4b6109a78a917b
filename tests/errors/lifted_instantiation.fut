-- An unlifted type parameter's values may be array elements, so it may
-- not be instantiated with a size-lifted type parameter.
-- ==
-- error: lifted-instantiation.*"t" is lifted and cannot be an array element

def first 'a (xs: [2]a) : a = xs[0]

def pair 'a (x: a) : [2]a = [x, x]

def wrap '~t (x: t) = pair x

def main (x: i32) = first (wrap x)
