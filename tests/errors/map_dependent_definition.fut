-- The same for a definition whose result size is its parameter.
-- ==
-- error: Cannot apply "map".*"k".*type containing anonymous sizes

def row (k: i64) : [k]i64 = map (* 2) (iota k)

def main (n: i64) = map row (iota n)
