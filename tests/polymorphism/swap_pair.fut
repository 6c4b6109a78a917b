-- A function with two type parameters.
-- ==
-- input { 1 true } output { true 1 }
def swap 'a 'b (x: a, y: b) : (b, a) = (y, x)
def main (a: i32) (b: bool) = swap (a, b)
