-- A literal is a valid parameter pattern, but a refutable one.
-- ==
-- error: refutable-pattern
def (-) (a: i32) 1 = a
