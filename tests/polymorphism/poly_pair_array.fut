-- Polymorphism over tuples of arrays: an unzip-like function.
-- ==
-- input { [1, 2] [3.0, 4.0] } output { [3.0, 4.0] [1, 2] }
def flip_all [n] 'a 'b (ps: [n](a, b)) : ([n]b, [n]a) =
  (map (.1) ps, map (.0) ps)
def main [n] (xs: [n]i32) (ys: [n]f64) = flip_all (zip xs ys)
