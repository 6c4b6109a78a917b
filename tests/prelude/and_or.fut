-- The array functions `and` and `or`.
-- ==
-- input { [true, true] } output { true true }
-- input { [true, false] } output { false true }
-- input { [false, false] } output { false false }
-- input { empty([0]bool) } output { true false }
def main (bs: []bool) = (and bs, or bs)
