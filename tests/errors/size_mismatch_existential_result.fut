-- A function whose result size is existential cannot stand for one whose
-- result has a known size.
-- ==
-- error: size-mismatch
def first_two (f: i64 -> [2]i64) (x: i64) : i64 = (f x)[1]

def main (x: i64) = first_two (\n -> iota n) x
