-- A character literal is an integer holding the code point.
-- ==
-- input { } output { 97 66 }
def main : (i32, i32) = ('a', 'A' + 1)
