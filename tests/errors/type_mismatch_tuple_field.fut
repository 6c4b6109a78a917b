-- A tuple whose second component has the wrong type: the message names it.
-- ==
-- error: type-mismatch.*Function body does not have expected type.*When matching types of record field "1"
def main (a: i32) (b: bool) : (i32, i32) = (a, b)
