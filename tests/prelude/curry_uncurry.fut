-- curry and uncurry convert between pair-taking and two-argument functions.
-- ==
-- input { 6 7 } output { 42 -1 [3, 7] }
def main (x: i32) (y: i32) =
  let mulp (a, b) = a * b
  in (curry mulp x y,
      uncurry (-) (x, y),
      map (uncurry (+)) (zip [1, 3] [2, 4]))
