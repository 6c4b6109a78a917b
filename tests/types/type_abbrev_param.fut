-- A type abbreviation with a type parameter.
-- ==
-- input { 1.5 2.5 } output { 2.5 1.5 }
type pair 'a = (a, a)
def swap 'a (p: pair a) : pair a = (p.1, p.0)
def main (x: f64) (y: f64) = swap (x, y)
