-- Integer division and remainder on i64: / and % round toward negative infinity,
-- // and %% truncate toward zero.
-- ==
-- input { 7i64 2i64 } output { 3i64 1i64 3i64 1i64 }
-- input { -7i64 2i64 } output { -4i64 1i64 -3i64 -1i64 }
-- input { 7i64 -2i64 } output { -4i64 -1i64 -3i64 1i64 }
-- input { -7i64 -2i64 } output { 3i64 -1i64 3i64 -1i64 }
-- input { -10000000000i64 3i64 } output { -3333333334i64 2i64 -3333333333i64 -1i64 }
-- input { 10000000001i64 -7i64 } output { -1428571429i64 -2i64 -1428571428i64 5i64 }
def main (a: i64) (b: i64) = (a / b, a % b, a // b, a %% b)
