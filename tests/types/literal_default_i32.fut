-- An unconstrained integer literal defaults to i32, a decimal one to f64.
-- ==
-- input { } output { 42 0.5 }
def main = (42, 0.5)
