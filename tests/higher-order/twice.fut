-- A polymorphic higher-order function applying its argument twice.
-- ==
-- input { 3 } output { 12 5 }
def twice 'a (f: a -> a) (x: a) : a = f (f x)
def main (x: i32) = (twice (* 2) x, twice (+ 1) x)
