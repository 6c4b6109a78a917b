-- A segmented scan written with a tuple operator, match on a tuple of
-- sums, a loop with tuple state over `for x in xs`, and a local function
-- capturing a size.
-- ==
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 4, 9] 15 2 }

type opt = #some i32 | #none

def segmented_scan [n] 't (op: t -> t -> t) (ne: t) (flags: [n]bool) (as: [n]t) : *[n]t =
  let pairs =
    scan (\(x_flag, x) (y_flag, y) -> (x_flag || y_flag, if y_flag then y else op x y))
         (false, ne)
         (zip flags as)
  let (_, res) = unzip pairs
  in res

def combine (a: opt) (b: opt) : opt =
  match (a, b)
  case (#some x, #some y) -> #some (x + y)
  case (#some x, #none) -> #some x
  case (#none, y) -> y

def main [n] (flags: [n]bool) (xs: [n]i32) =
  let sc = segmented_scan (+) 0 flags xs
  let total =
    match foldl combine #none (map (\x -> if x > 0 then #some x else #none) xs)
    case #some s -> s
    case #none -> 0
  let last_idx (i: i64) = i == n - 1
  let (segments, _) =
    loop (count, i) = (0, 0i64) for f in flags do
      (if f then count + 1 else count, i + if last_idx i then 0 else 1)
  in (sc, total, segments)
