-- Loops whose array sizes change between iterations, `let [n]` on a
-- function result, a local function capturing a size, polymorphic
-- higher-order helpers, and a while loop over a shrinking array.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6] }
-- output { [3, 4, 5, 9, 6] [1, 1, 2] 4i64 [8, 16, 24] 3 }

def halve [n] 't (xs: [n]t) : []t = xs[0:n / 2]

def apply_n 'a (n: i32) (f: a -> a) (x: a) : a =
  loop x for _i < n do f x

def main [n] (xs: [n]i32) =
  let (big, small) = partition (>= 3) xs
  let [k] (h: [k]i32) = halve xs
  let scaled = let scale (i: i64) = i32.i64 ((i + 1) * k * 2) in map scale (iota 3)
  let ys = loop ys = xs while length ys > 1 do halve ys
  let rounds = apply_n 3 (+ 1) 0
  in (big, small, length h + length ys - 1, scaled, rounds + 0 * ys[0])
