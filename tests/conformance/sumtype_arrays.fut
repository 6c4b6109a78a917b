-- Sum types carrying arrays and records; match with literal and wildcard patterns.
-- ==
-- input { 0 } output { 6 }
-- input { 1 } output { 20 }
-- input { 2 } output { -1 }
-- input { 7 } output { 42 }
type~ t = #vec []i32 | #pt {x: i32, y: i32} | #none | #lit i32
def pick (k: i32) : t =
  match k
  case 0 -> #vec [1, 2, 3]
  case 1 -> #pt {x = 4, y = 5}
  case 2 -> #none
  case _ -> #lit 42
def eval (v: t) : i32 =
  match v
  case #vec xs -> i32.sum xs
  case #pt {x, y} -> x * y
  case #none -> -1
  case #lit n -> n
def main (k: i32) = eval (pick k)
