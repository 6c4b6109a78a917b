-- A file's imports are local to it: importing `middle` does not bring
-- `base`'s `triple` into scope.
-- ==
-- error: unknown-name.*"triple"

import "chain/middle"

def main (x: i32) : i32 = triple (nine_times x)
