-- A loop with zero iterations returns the initial value.
-- ==
-- input { empty([0]i32) } output { 42 }
def main (xs: []i32) = loop acc = 42 for x in xs do acc + x
