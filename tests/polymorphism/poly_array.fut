-- A polymorphic function over arrays with a size parameter.
-- ==
-- input { [1, 2, 3] [true, false] } output { 3 false }
def last_elem [n] 't (xs: [n]t) : t = xs[n - 1]
def main (a: []i32) (b: []bool) = (last_elem a, last_elem b)
