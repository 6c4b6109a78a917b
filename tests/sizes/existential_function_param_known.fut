-- A parameter of type `() -> []t` has its own existential result size:
-- any function returning an array fits it, also one whose result size is a
-- size known at the call (here `n`, a parameter of the caller).
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64, 0i64, 1i64, 2i64] }
-- input { 0i64 } output { empty([0]i64) }
def twice 't (f: () -> []t) : []t = f () ++ f ()

def main (n: i64) : []i64 = twice (\() -> iota n)
