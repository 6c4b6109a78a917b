-- A type abbreviation whose definition has a non-polynomial size of its
-- size parameter (`[n/2]`): applied to another size, the term is
-- substituted, so `t [n]` in two signatures is the same type.
-- ==
-- input { 9i64 } output { 12 }
-- input { 4i64 } output { 6 }
-- input { 1i64 } output { 0 }

type t [n] = {a: [n](), b: [n/2]i32}

def mk [n] (b: [n/2]i32) : t [n] = {a = replicate n (), b}

def get [n] (x: t [n]) : [n/2]i32 = x.b

def main (m: i64) =
  let r = mk (replicate (m/2) 3i32 :> [m/2]i32)
  in i32.sum (get r)
