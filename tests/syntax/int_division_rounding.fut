-- / and % round toward negative infinity; // and %% truncate toward zero.
-- ==
-- input { -7 2 } output { -4 1 -3 -1 }
-- input { 7 -2 } output { -4 -1 -3 1 }
-- input { 7 2 } output { 3 1 3 1 }
def main (a: i32) (b: i32) = (a / b, a % b, a // b, a %% b)
