-- An option-like sum type with a polymorphic parameter.
-- ==
-- input { [4, 5, 6] 1i64 } output { 5 }
-- input { [4, 5, 6] 9i64 } output { -1 }
type opt 'a = #some a | #none
def get (xs: []i32) (i: i64) : opt i32 =
  if i >= 0 && i < length xs then #some xs[i] else #none
def main (xs: []i32) (i: i64) =
  match get xs i
  case #some v -> v
  case #none -> -1
