-- An anonymous size in a parameter of a returned function type cannot be existential.
-- ==
-- error: existential-param-ret
def f (x: i32) : []i32 -> i32 = \ys -> ys[0] + x
def main (x: i32) = x
