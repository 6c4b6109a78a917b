-- reduce with the logical operators (&&) and (||).
-- ==
-- input { [true, true, false] } output { false true }
-- input { [true, true] } output { true true }
-- input { [false, false] } output { false false }
-- input { empty([0]bool) } output { true false }
def main (bs: []bool) = (reduce (&&) true bs, reduce (||) false bs)
