-- A loop whose branches swap its two arrays, each updating one: the
-- `if`'s results may each be either array, but never the same one, so
-- the loop may update them in place (the IR check took them for aliases
-- of each other and rejected the program on the compiled backends).
-- Traced by hand with xs = [1, -2, 3]:
--   start   a = [1, -2, 3], b = [1, -2, 3]
--   i = 0 (x > 0): (b with [0] = 1, a) = ([1, -2, 3], [1, -2, 3])
--   i = 1 (x < 0): (a with [1] = 2, b) = ([1, 2, 3], [1, -2, 3])
--   i = 2 (x > 0): (b with [2] = 1, a) = ([1, -2, 1], [1, 2, 3])
-- so Σa + Σb = 0 + 6 = 6.
-- ==
-- input { [1.0, -2.0, 3.0] } output { 6.0 }
-- input { empty([0]f64) } output { 0.0 }
entry main [n] (xs: [n]f64) : f64 =
  let (a, b) =
    loop (a, b) = (copy xs, copy xs) for i < n do
      if xs[i] > 0 then (b with [i] = 1, a) else (a with [i] = 2, b)
  in f64.sum a + f64.sum b
