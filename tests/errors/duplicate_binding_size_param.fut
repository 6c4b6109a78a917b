-- A value parameter may not reuse the name of a size parameter.
-- ==
-- error: duplicate-binding.*"k" also bound
def count [k] (k: [k]i64) = length k
def main (xs: []i64) = count xs
