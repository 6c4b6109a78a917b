-- A lifted type parameter may stand for a function, so it cannot be an array element.
-- ==
-- error: array-of-functions.*Cannot create array.*array element
def pair '^f (g: f) = [g, g]
def main (x: i32) = length (pair x)
