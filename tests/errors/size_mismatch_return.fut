-- Returning an array of size n+1 where size n is declared.
-- ==
-- error: size-mismatch
def snoc [n] (xs: [n]i32) : [n]i32 = xs ++ [0]
def main (xs: []i32) = snoc xs
