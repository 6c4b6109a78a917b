-- A user-defined operator starting with + gets the fixity of +.
-- ==
-- input { } output { 16 123 }
def (a: i32) +^ (b: i32) : i32 = a * 10 + b
def main = (1 +^ 2 * 3, 1 +^ 2 +^ 3)
