-- `twice` needs a function of type `t -> t`, so the function must keep the
-- size of its argument; appending an element does not.
-- ==
-- error: occurs-check

def twice 't (f: t -> t) (x: t) = f (f x)

def main [n] (xs: [n]i32) = twice (\ys -> ys ++ [0]) xs
