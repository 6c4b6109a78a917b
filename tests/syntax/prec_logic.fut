-- && binds tighter than ||, and comparisons bind tighter than both.
-- ==
-- input { true false false } output { true false }
-- input { false true true } output { true true }
def main (a: bool) (b: bool) (c: bool) =
  (a || b && c, 1 < 2 && b)
