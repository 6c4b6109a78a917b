-- Constructors whose sum type is fixed by an annotation, a parameter type or
-- the other branch of a conditional are not ambiguous.
-- ==
-- input { true } output { 1i32 7i32 }
-- input { false } output { 2i32 7i32 }

type dir = #left | #right

def pick (b: bool) : dir = if b then #left else #right

def weight (d: dir) : i32 = match d case #left -> 1 case #right -> 2

def main (b: bool) : (i32, i32) =
  let d = if b then pick b else #right
  let e: #x i32 | #y = #x 7
  in (weight d, match e case #x v -> v case #y -> 0)
