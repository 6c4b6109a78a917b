-- A loop over a tuple of parameters consumes only the initial values of
-- the parameters it updates in place: `seed` is a non-unique parameter
-- and stays usable.
-- ==
-- input { 5 } output { 8 [5, 6, 7] 5 }

def fill (seed: i32) =
  let xs = replicate 3 0i32
  let (s, xs) =
    loop (seed, xs) for i < 3 do
      (seed + 1, xs with [i] = seed)
  in (s, xs, seed)

def main (seed: i32) = fill seed
