-- A polymorphic function taking a function argument.
-- ==
-- input { [1, 2, 3] } output { [2.0, 4.0, 6.0] }
def my_map [n] 'a 'b (f: a -> b) (xs: [n]a) : [n]b = map f xs
def main (xs: []i32) = my_map (\x -> f64.i32 x * 2.0) xs
