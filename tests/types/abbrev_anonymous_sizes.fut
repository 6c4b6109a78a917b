-- Anonymous sizes in a type abbreviation are fine where they are
-- existential (a function's result) or plain array sizes, and a function
-- type's parameter may use a named size parameter of the abbreviation.
-- ==
-- input { [1.0f32, 2.0f32, 4.0f32] } output { 7.0f32 3i64 8.0f32 }

type^ grow = i64 -> []f32
type~ vec = []f32
type^ fold [n] = [n]f32 -> f32

def apply_fold [n] (f: fold [n]) (xs: [n]f32) = f xs

def main (xs: []f32) : (f32, i64, f32) =
  let g: grow = \k -> replicate k 2.0f32
  let v: vec = g 3
  in (apply_fold (\ys -> reduce (+) 0 ys) xs, length v, reduce (+) 0 (g 4))
