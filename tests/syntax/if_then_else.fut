-- if-then-else is an expression; else-if chains.
-- ==
-- input { -5 } output { -1 }
-- input { 0 } output { 0 }
-- input { 9 } output { 1 }
def main (x: i32) = if x < 0 then -1 else if x == 0 then 0 else 1
