-- scan with (||): has a true value been seen yet?
-- ==
-- input { [false, false, true, false] } output { [false, false, true, true] }
-- input { empty([0]bool) } output { empty([0]bool) }
def main (bs: []bool) = scan (||) false bs
