-- A polymorphic type abbreviation instantiated at two types.
-- ==
-- input { 1 2 } output { 3 true }
type two 't = {fst: t, snd: t}
def mk 't (a: t) (b: t) : two t = {fst = a, snd = b}
def main (a: i32) (b: i32) =
  let p = mk a b
  let q = mk true false
  in (p.fst + p.snd, q.fst)
