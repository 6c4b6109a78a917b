-- The value `#nothing` of one branch must know the size of the payload of
-- `#just`, which the other branch computes.
-- ==
-- error: causality-check

type maybe 'a = #nothing | #just a

def main (k: i32) (ys: []i32) : i64 =
  let r : maybe ([]i32) = if k == 0 then #nothing else #just (filter (> k) ys)
  in match r
     case #nothing -> 0
     case #just zs -> length zs
