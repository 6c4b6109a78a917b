-- Near Futhark's restrictions on functions in branches, loops and return
-- types, but allowed: branches over size-lifted (`'~`) and plain type
-- parameters, a function applied inside a branch, a loop over a record
-- that a function produces, and a return type naming a whole parameter.
-- ==
-- input { true 3 } output { 3 [1i64, 2i64, 3i64] 9 4i64 }
-- input { false 3 } output { 0 [7i64, 8i64, 9i64] 6 4i64 }

def pick_sized '~t (b: bool) (x: t) (y: t) : t = if b then x else y

def pick 't (b: bool) (x: t) (y: t) : t = if b then x else y

def apply_branch (b: bool) (f: i32 -> i32) (g: i32 -> i32) (x: i32) = if b then f x else g x

def pad (n: i64) (x: i32) : [n]i32 = replicate n x

entry main (b: bool) (x: i32) : (i32, []i64, i32, i64) =
  let arr = pick_sized b [1i64, 2, 3] [7i64, 8, 9]
  let y = pick b x 0
  let z = apply_branch b (\v -> v * 3) (\v -> v * 2) x
  let r = loop acc = {n = 0i64} for i < 4 do {n = acc.n + length (pad 1 x)}
  in (y, arr, z, r.n)
