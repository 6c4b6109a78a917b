-- A polymorphic identity function used at several types.
-- ==
-- input { 1 2.5 true } output { 1 2.5 true }
def id' 'a (x: a) : a = x
def main (a: i32) (b: f64) (c: bool) = (id' a, id' b, id' c)
