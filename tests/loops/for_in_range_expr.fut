-- `for x in` over a strided range expression.
-- ==
-- input { } output { 15i64 }
def main = loop acc = 0i64 for x in 2..5..<11 do acc + x
