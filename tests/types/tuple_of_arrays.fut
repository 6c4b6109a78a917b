-- Tuples containing arrays are passed and returned.
-- ==
-- input { [1, 2] [3.0, 4.0] } output { [3.0, 4.0] [1, 2] }
def swap 'a 'b (p: (a, b)) : (b, a) = (p.1, p.0)
def main (xs: []i32) (ys: []f64) = swap (xs, ys)
