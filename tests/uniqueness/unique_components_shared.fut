-- `twice` returns its argument twice; both unique results would be one array.
-- ==
-- error: unique-return-aliased

def twice (x: []i32) = (x, x)

def main (n: i64) : (*[]i32, *[]i32) = twice (replicate n 0)
