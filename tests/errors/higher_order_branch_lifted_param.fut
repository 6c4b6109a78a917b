-- A lifted type parameter may stand for a function, so an `if` may not
-- return a value of that type, whatever it is instantiated with.
-- ==
-- error: higher-order-branch.*if-results may not be of function type

def pick '^t (b: bool) (x: t) (y: t) : t = if b then x else y

entry main (b: bool) (x: i32) = pick b x 0
