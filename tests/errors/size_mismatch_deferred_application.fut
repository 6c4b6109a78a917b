-- `n + 1` cannot be solved against the existential size of `filter`'s
-- result: the size equation fails when the definition is finished, and the
-- error names the application it came from, as Futhark's does.
-- ==
-- error: size-mismatch.*Cannot apply "bar" to .*do not match
def bar [n] (_: [n + 1]i64) = n

def main (k: i64) = bar (filter (> 0) (iota k))
