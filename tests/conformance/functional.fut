-- Combinators from the prelude: uncurry, curry, flip, id, const, >->.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] [3, 3, 3] [1, 2, 3] [0, 0, 0] [4, 6, 8] }
def main (xs: []i32) (ys: []i32) =
  let s = map (uncurry (+)) (zip xs ys)
  let d = map2 (flip (-)) xs ys
  let g = (+ 1) >-> (* 2)
  in (s, d, map id xs, map (const 0) xs, map g xs)
