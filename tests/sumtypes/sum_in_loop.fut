-- A sum-typed value as loop state.
-- ==
-- input { 4 } output { 4 }
-- input { 5 } output { -5 }
type st = #even i32 | #odd i32
def main (n: i32) =
  let s = loop (s: st) = #even 0 for _i < n do
    match s
    case #even k -> #odd (k + 1)
    case #odd k -> #even (k + 1)
  in match s
     case #even k -> k
     case #odd k -> -k
