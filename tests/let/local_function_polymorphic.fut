-- A local function with an explicit type parameter is polymorphic.
-- ==
-- input { 1 true } output { 1 true }
def main (x: i32) (b: bool) =
  let ident 't (v: t) : t = v
  in (ident x, ident b)
