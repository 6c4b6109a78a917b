-- A definition without parameters declared with a function type whose
-- result has an anonymous size: the body may give any size there, and
-- each use gets its own size.
-- ==
-- entry: lengths
-- input { 2i64 3i64 } output { 5i64 }
-- ==
-- entry: wrapped
-- input { 4 } output { 0i64 }

type boxed 'a = #boxed a

def zeros : i64 -> []i32 = \n -> replicate n 0

entry lengths (a: i64) (b: i64) = length (zeros a) + length (zeros b)

def empty : i32 -> boxed ([]i32) = \_ -> #boxed []

entry wrapped (x: i32) = match empty x case #boxed xs -> length xs
