-- Anonymous sizes in a let-binding's ascription that the bound value
-- determines are fine, in arrays and in a size-lifted sum type whose
-- constructors all appear in the value's type.
-- ==
-- input { [1f32, 2f32, 3f32] } output { 3i64 6f32 }

type~ one = #one ([]f32)

def main (xs: []f32) : (i64, f32) =
  let ys: []f32 = map (* 2) xs
  let p: one = #one xs
  let s = match p case #one zs -> reduce (+) 0 zs
  in (length ys, s)
