-- Instantiations that respect liftedness: a size-lifted parameter passed on
-- to a size-lifted or fully lifted one, a lifted one to a lifted one, and
-- an unlifted one to anything.
-- ==
-- input { 3i64 } output { 3i64 5i32 [7i32, 7i32] }

def keep_sized '~a (x: a) : a = x
def keep_any '^a (x: a) : a = x
def pair 'a (x: a) : [2]a = [x, x]

def pass_sized '~t (x: t) : t = keep_any (keep_sized x)
def pass_fun '^f (g: f) : f = keep_any g
def pass_plain 't (x: t) : [2]t = pair (keep_sized x)

def main (n: i64) : (i64, i32, [2]i32) =
  (length (pass_sized (iota n)), (pass_fun (\(y: i32) -> y + 2)) 3, pass_plain 7)
