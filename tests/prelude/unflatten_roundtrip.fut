-- unflatten (flatten xss) gives back xss without any coercion.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 2, 3], [4, 5, 6]] }
def main [n][m] (xss: [n][m]i32) : [n][m]i32 = unflatten (flatten xss)
