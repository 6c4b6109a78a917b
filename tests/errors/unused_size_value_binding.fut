-- A definition without parameters may not have a size parameter its type does not use.
-- ==
-- error: unused-size.*size-polymorphic value binding
def evens [m] = filter (\x -> x % 2 == 0) (iota m)
