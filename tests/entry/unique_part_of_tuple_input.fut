-- A tuple parameter with a unique part makes the entry's (opaque) input
-- unique, so the entry point may update that part in place: the verifier,
-- which every compiled backend runs on the whole program, must accept
-- `update_first` (its opaque input cannot be given as text, so `main` runs
-- the same code).
-- ==
-- input { [1, 2, 3] 10 } output { [11, 2, 3] 14 }
-- input { [5] -5 } output { [0] 3 }

def bump (a: *[]i32, x: i32) : ([]i32, i32) =
  let a[0] = a[0] + x
  in (a, a[0] + 3)

entry update_first (a: *[]i32, x: i32) : ([]i32, i32) = bump (a, x)

entry main (a: *[]i32) (x: i32) : ([]i32, i32) = bump (a, x)
