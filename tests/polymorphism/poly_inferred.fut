-- A function without annotations gets a polymorphic type by inference.
-- ==
-- input { 3 true } output { 3 true }
def pick a b c = if a then b else c
def main (x: i32) (b: bool) = (pick true x 0, pick false false b)
