-- Arrays of units have sizes like any other arrays: built by `replicate`,
-- `map`, literals and concatenation, filtered, transposed, reduced, passed
-- through `reduce_by_index`, loops and branches whose sizes differ, and
-- indexed (an index out of bounds is still an error).
-- ==
-- input { 4i64 } output { 4i64 7i64 12i64 true 4i64 8i64 5i64 }
-- input { 0i64 } output { 0i64 3i64 4i64 true 0i64 0i64 1i64 }
-- input { -1i64 } error: .*

def count 'a [n] (_: [n]a) : i64 = n

entry main (n: i64) : (i64, i64, i64, bool, i64, i64, i64) =
  let us = replicate n ()
  let vs = map (\_ -> ()) (iota (n + 1))
  let ws = filter (\_ -> true) (us ++ vs)
  let h = reduce_by_index (replicate 3 ()) (\() () -> ()) () (map (% 3) (iota n)) us
  let r = reduce (\() () -> ()) () ws
  let m = [(), ()]
  let doubled = loop xs = us for _i < 1 do xs ++ xs
  let picked = if n > 2 then vs else [()]
  in ( count us
     , length vs + length m
     , length ws + length h
     , r == vs[n]
     , length (transpose (replicate 2 us))
     , count doubled
     , length picked
     )
