-- The existential size of a type abbreviation is shared by the array and
-- the function's result: a function returning arrays of another size
-- (here `x` where the array has `x + 1` elements) does not fit.
-- ==
-- error: size-mismatch.*Sizes .* do not match
type^ t = ?[n].([n]bool, bool -> [n]bool)

def v (x: i64) : t =
  let y = x + 1
  in (replicate y true, \b -> replicate x b)

def main (x: i64) = length (v x).0
