-- Integer division and remainder on i16: / and % round toward negative infinity,
-- // and %% truncate toward zero.
-- ==
-- input { 7i16 2i16 } output { 3i16 1i16 3i16 1i16 }
-- input { -7i16 2i16 } output { -4i16 1i16 -3i16 -1i16 }
-- input { 7i16 -2i16 } output { -4i16 -1i16 -3i16 1i16 }
-- input { -7i16 -2i16 } output { 3i16 -1i16 3i16 -1i16 }
-- input { -32768i16 7i16 } output { -4682i16 6i16 -4681i16 -1i16 }
-- input { 1000i16 -3i16 } output { -334i16 -2i16 -333i16 1i16 }
def main (a: i16) (b: i16) = (a / b, a % b, a // b, a %% b)
