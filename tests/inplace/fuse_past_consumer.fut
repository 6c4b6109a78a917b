-- A map that reads an array must run before a later statement consumes
-- that array, even when the map's result is only used after it: here the
-- consumer is a function call and a loop, which update the array in place.
-- ==
-- entry: through_call
-- input { [1, 2, 3] } output { [4, 6, 8] [0, 0, 0] }
-- ==
-- entry: through_loop
-- input { [1, 2, 3] } output { [4, 6, 8] [10, 20, 30] }

def zero_all [n] (xs: *[n]i32) : *[n]i32 =
  loop xs for i < n do xs with [i] = 0

entry through_call [n] (xs: *[n]i32) =
  let ys = map (+ 1) xs
  let zs = zero_all xs
  let ws = map (* 2) ys
  in (ws, zs)

entry through_loop [n] (xs: *[n]i32) =
  let ys = map (+ 1) xs
  let zs = loop acc = xs for i < n do acc with [i] = acc[i] * 10
  let ws = map (* 2) ys
  in (ws, zs)
