-- The anonymous sizes of a let-binding's ascribed type are the bound
-- value's sizes: the payload size of a constructor the value does not use
-- is determined by nothing.
-- ==
-- error: ambiguous-size.*Ambiguous size.*explicit type ascription

type~ pair = #one ([]f32) | #two ([]f32) ([]f32)

def main (xs: []f32) =
  let p: pair = #one xs
  in match p case #one ys -> length ys case #two a b -> length a + length b
