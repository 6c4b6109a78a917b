-- The conditional's size is existential (4 or the parameter's): it is not
-- the parameter's size.
-- ==
-- error: size-mismatch.*do not match
def f (b: bool) (s: []i32) =
  let r = if b then replicate 4 0 else s
  in map2 (+) r s

def main (s: []i32) = f true s
