-- Entry points that fail at run time after allocating arrays inside nested
-- blocks, loops and parallel loops (scripts/leaks.sh calls them many times
-- and checks that a failed call leaves no memory behind). `i` is an index:
-- in bounds the calls succeed, out of bounds they fail.

-- Two fresh arrays, then an index check.
entry idx (n: i64) (i: i64) : i64 =
  let xs = map (* 2) (iota n)
  let ys = map (+ 1) xs
  in ys[i] + xs[0]

-- Fails inside a loop whose body allocates, with an array carried across iterations.
entry inloop (n: i64) (i: i64) : []i64 =
  loop acc = iota n for j < 3 do
    let t = map (+ j) acc
    in map (\x -> t[if x == j then i else x % n]) t

-- A failed assertion after a reduction and a scan.
entry sums (n: i64) (i: i64) : i64 =
  let xs = map (* 3) (iota n)
  let ps = scan (+) 0 xs
  let s = reduce (+) 0 xs
  in assert (i < n) (s + ps[n - 1])

-- Fails inside a parallel map whose iterations allocate their own arrays
-- (on the multicore backend, in the worker threads).
entry nested (n: i64) (i: i64) : []i64 =
  map (\r -> let row = map (+ r) (iota n) in row[i] + reduce (+) 0 row) (iota 16)

-- Holds a reference to its input in a loop when it fails: the input must
-- still be freed when the caller frees it.
entry held (xs: []i64) (i: i64) : []i64 =
  loop acc = xs for j < 3 do map (\x -> x + acc[i + j]) acc

-- Consumes its input.
entry consume (xs: *[]i64) (i: i64) : []i64 =
  let ys = map (+ 1) xs
  let xs[0] = ys[i]
  in xs

-- Several results, the last one failing.
entry several (n: i64) (i: i64) : ([]i64, []f64, i64) =
  let xs = iota n
  let fs = map f64.i64 xs
  in (xs, fs, xs[i])

-- An array too large to allocate (its size in bytes overflows), after smaller ones.
entry huge (n: i64) (i: i64) : []i64 =
  let xs = map (+ i) (iota n)
  let ys = replicate (if i < n then 2 else i << 52) i
  in ys with [1] = reduce (+) 0 xs
