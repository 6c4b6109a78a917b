-- Size-preserving functions fit `t -> t`.
-- ==
-- input { [1, 2, 3] } output { [3, 4, 5] [1, 2, 3] }

def twice 't (f: t -> t) (x: t) = f (f x)

def main [n] (xs: [n]i32) = (twice (\ys -> map (+ 1) ys) xs, twice (\ys -> reverse ys) xs)
