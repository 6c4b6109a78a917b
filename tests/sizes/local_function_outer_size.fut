-- A local function's parameter whose size is tied to a variable of the
-- enclosing function is not size-polymorphic: `backward` takes arrays of
-- the size of `ps` only, even though `os` is unannotated.
-- ==
-- input { [1f32, 2f32] 3f32 } output { [3f32, 6f32] 15f32 }

def main (xs: []f32) (p: f32) =
  let propagation ps =
    let backward os = f32.sum (map2 (*) ps os)
    in (map (* p) ps, backward)
  let (forward, backward) = propagation xs
  in (forward, backward forward)
