-- let-in used inside a larger expression, within parentheses.
-- ==
-- input { 3 } output { 16 }
def main (x: i32) = 1 + (let y = x * 5 in y)
