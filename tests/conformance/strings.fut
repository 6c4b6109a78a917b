-- String literals are []u8.
-- ==
-- input { } output { 5i64 [104u8, 105u8] 72u8 }
def main : (i64, []u8, u8) =
  let s = "hello"
  in (length s, "hi", 'H')
