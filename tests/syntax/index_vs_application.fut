-- `a[i]` (no space) indexes, `f [x]` (space) applies f to an array literal.
-- ==
-- input { [10, 20, 30] } output { 30 20 }
def first (xs: [3]i32) = xs[0]
def main (a: [3]i32) = (first [a[2], a[1], a[0]], a[1])
