-- A type abbreviation cannot make arrays of a lifted type parameter.
-- ==
-- error: array-of-functions.*Cannot create array
type many '^t = [3]t
def main (x: i32) = x
