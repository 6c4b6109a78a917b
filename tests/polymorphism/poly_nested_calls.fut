-- Polymorphic functions calling other polymorphic functions.
-- ==
-- input { [4, 5, 6] } output { [6, 5, 4] 4 }
def rev [n] 't (xs: [n]t) : [n]t = xs[::-1] :> [n]t
def first [n] 't (xs: [n]t) : t = xs[0]
def both [n] 't (xs: [n]t) : ([n]t, t) = (rev xs, first (rev (rev xs)))
def main (xs: []i32) = both xs
