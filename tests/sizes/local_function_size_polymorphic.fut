-- A local function is polymorphic in the sizes of its parameters: `mean`
-- is applied to an array whose size `filter` computes after `mean` is
-- defined, and to an array of another size.
-- ==
-- input { [1f32, -2f32, 3f32, 6f32] } output { 3.3333333f32 2f32 }
-- input { [4f32] } output { 4f32 4f32 }

def main (xs: []f32) =
  let mean x = f32.sum x / f32.i64 (length x)
  in (xs |> filter (>= 0) |> mean, mean xs)
