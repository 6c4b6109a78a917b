-- The prelude function `not` negates a boolean and can be passed to map.
-- ==
-- input { [true, false] } output { [false, true] false }
def main (bs: []bool) = (map not bs, not true)
