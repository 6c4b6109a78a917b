-- The return type names `n`, which is bound inside a tuple parameter: the
-- function's type cannot refer to it.
-- ==
-- error: return-refers-to-inner-name.*refers to the name "n" which is bound to an inner component of a function parameter

def pad (n: i64, x: i32) : [n]i32 = replicate n x

entry main (k: i64) = pad (k, 1)
