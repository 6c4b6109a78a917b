-- Array literal elements must share one type.
-- ==
-- error: type-mismatch
def main = [1i32, 2i64]
