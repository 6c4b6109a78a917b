-- Two fresh components of the result cannot alias each other.
-- ==
-- error: unique-return-aliased
def f (xs: *[]i32) : (*[]i32, *[]i32) = (xs, xs)
def main (xs: *[]i32) = f xs
