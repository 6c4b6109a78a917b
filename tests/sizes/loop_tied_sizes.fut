-- Loop parameters whose sizes the body changes, and that the body passes to
-- a function wanting one size for both (`step` takes `[n]` keys and `[n]`
-- values): Futhark checks the body with a flexible size per position, so
-- the two positions share one existential size. `marks` keeps its size
-- (`bump` returns an array of its argument's size), so after the loop it
-- still has size `m` and combines with `iota m`.
--
-- keys 5 4 1 3 (values 50 40 10 30), marks 0 0 0 0; each round keeps the
-- keys above 1, minus 1, and adds 1 to marks at each kept key below 4:
--   round 1: keys 4 3 2 -> marks 0 0 1 1
--   round 2: keys 3 2 1 -> marks 0 1 2 2
--   round 3: keys 2 1   -> marks 0 2 3 2
--   round 4: keys 1     -> marks 0 3 3 2
--   round 5: keys none; 5 rounds, values left: none.
-- i + marks[i] = 0 4 5 5.
-- ==
-- input { [5i64, 4, 1, 3] [50, 40, 10, 30] [0, 0, 0, 0] }
-- output { [0, 4, 5, 5] 5 0 }

def step [n] (keys: [n]i64) (vals: [n]i32) : ([]i64, []i32) =
  let (k, v) = unzip (filter (\(k, _) -> k > 1) (zip keys vals))
  in (map (\x -> x - 1) k, v)

def bump [n] (keys: [n]i64) (marks: *[]i32) : *[]i32 =
  let ks = map (\k -> if k < length marks then k else -1) keys
  in reduce_by_index marks (+) 0 ks (map (const 1) keys)

def main [m] (keys: []i64) (vals: []i32) (marks: *[m]i32) =
  let (_, vs, marks, rounds) =
    loop (keys, vals, marks, rounds) = (keys, vals, marks, 0) while length keys > 0 do
      let (keys, vals) = step keys vals
      in (keys, vals, bump keys marks, rounds + 1)
  in (map2 (+) (map i32.i64 (iota m)) marks, rounds, i32.sum vs)
