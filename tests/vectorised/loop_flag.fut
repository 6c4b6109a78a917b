-- A map whose function is a loop carrying a flag that a branch in the
-- loop reads: the branch depends on earlier iterations, so it must stay in
-- the kernel's loop (the `unswitch` pass takes out only branches on
-- conditions that no iteration assigns). Each row's result is the sum of
-- its elements after the first positive one, worked out by hand:
-- [1, -2, 3] -> -2 + 3 = 1; [-1, -1, 5] -> 0; [2, 3, -1, 4] -> 3 - 1 + 4 = 6.
-- ==
-- input { [[1.0, -2.0, 3.0], [-1.0, -1.0, 5.0], [0.0, 0.0, 0.0]] }
-- output { [1.0, 0.0, 0.0] }
-- input { [[2.0, 3.0, -1.0, 4.0], [-3.0, 1.0, 1.0, 1.0]] }
-- output { [6.0, 2.0] }
-- input { empty([0][4]f64) }
-- output { empty([0]f64) }
entry main [n][m] (xss: [n][m]f64) : [n]f64 =
  map (\xs ->
         let (_, s) =
           loop (seen, s) = (false, 0.0) for x in xs do
             let s' = if seen then s + x else s
             in (seen || x > 0, s')
         in s)
      xss
