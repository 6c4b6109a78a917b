-- A body whose type differs from the declared return type.
-- ==
-- error: type-mismatch.*Function body does not have expected type
def swap 'a 'b (p: a) (q: b) : (a, b) = (q, p)
def main (x: i32) = swap x x
