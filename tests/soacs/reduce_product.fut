-- reduce with (*); the empty product is the neutral element 1.
-- ==
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] } output { 120i64 }
-- input { [-2i64, 3i64] } output { -6i64 }
-- input { empty([0]i64) } output { 1i64 }
def main (xs: []i64) = reduce (*) 1 xs
