-- A loop whose body returns, for a parameter, either a filtered array or
-- the parameter itself: the branches' join has a size of its own, and the
-- parameter's size varies (it is not the join's size before the loop).
-- [5,3,8,1]: round 1 keeps > 2 (5 3 8), round 2 keeps > 3 (5 8), round 3
-- keeps > 4 (5 8, nothing removed) and stops: 3 rounds.
-- ==
-- input { [5, 3, 8, 1] } output { [5, 8] 3i64 }

def main (xs: []i32) =
  let (ys, _, rounds, _) =
    loop (ys, t, rounds, go) = (xs, 2, 0i64, true) while go do
      let zs = filter (> t) ys
      in if length zs < length ys then (zs, t + 1, rounds + 1, true) else (ys, t, rounds + 1, false)
  in (ys, rounds)
