-- loop with `for x in xs`.
-- ==
-- input { [3, 1, 4, 1, 5] } output { 14 }
def main (xs: []i32) = loop acc = 0 for x in xs do acc + x
