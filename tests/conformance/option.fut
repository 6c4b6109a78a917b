-- A polymorphic option type.
-- ==
-- input { [1, 5, 8, 3] 4 } output { true 5 }
-- input { [1, 2] 4 } output { false 0 }
type opt 'a = #some a | #none
def find_first (p: i32 -> bool) (xs: []i32) : opt i32 =
  let r = loop acc = #none for x in xs do
    match acc
    case #some _ -> acc
    case #none -> if p x then #some x else #none
  in r
def main (xs: []i32) (k: i32) =
  match find_first (> k) xs
  case #some v -> (true, v)
  case #none -> (false, 0)
