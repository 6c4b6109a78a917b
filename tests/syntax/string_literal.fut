-- A string literal is a []u8 array of its UTF-8 bytes.
-- ==
-- input { } output { [104u8, 105u8, 33u8] 5i64 }
def main = ("hi!", length "hello")
