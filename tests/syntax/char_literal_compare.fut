-- Character literals compared against u8 string elements.
-- ==
-- input { "hello" } output { 2i64 }
def main (s: []u8) = i64.sum (map (\c -> if c == 'l' then 1 else 0) s)
