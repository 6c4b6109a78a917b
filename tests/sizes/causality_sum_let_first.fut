-- Binding the payload first makes its size known to both branches.
-- ==
-- input { 1 [3, -1, 2, -5] } output { 2i64 }
-- input { 0 [3, -1, 2, -5] } output { 0i64 }

type maybe 'a = #nothing | #just a

def main (k: i32) (ys: []i32) : i64 =
  let pos = filter (> k) ys
  let r : maybe ([]i32) = if k == 0 then #nothing else #just pos
  in match r
     case #nothing -> 0
     case #just zs -> length zs
