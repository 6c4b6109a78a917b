-- A polymorphic user-defined operator in prefix form with a type parameter.
-- ==
-- input { 1 2.5 } output { 2.5 1 }
def (<->) 'a 'b (x: a) (y: b) : (b, a) = (y, x)
def main (i: i32) (f: f64) = i <-> f
