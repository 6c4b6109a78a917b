-- % and / on negative numbers (Futhark rounds towards negative infinity),
-- and rem/quot which truncate.
-- ==
-- input { -7 2 } output { 1 -4 -1 -3 }
-- input { 7 -2 } output { -1 -4 1 -3 }
def main (a: i32) (b: i32) = (a % b, a / b, a %% b, a // b)
