-- Defining an operator in prefix form; it starts with < so it binds like comparisons.
-- ==
-- input { } output { 10 7 }
def (<*>) (a: i32) (b: i32) : i32 = a * b + 1
def main = (1 + 2 <*> 3, (<*>) 2 3)
