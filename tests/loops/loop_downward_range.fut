-- `for i in` over decreasing ranges visits elements in order.
-- ==
-- input { } output { 54321i64 543210i64 }
def main =
  ( loop acc = 0i64 for i in 5..>0 do acc * 10 + i
  , loop acc = 0i64 for i in 5..4...0 do acc * 10 + i )
