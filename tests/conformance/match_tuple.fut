-- match on tuples, literals, and nested constructors.
-- ==
-- input { 0 0 } output { 0 }
-- input { 0 5 } output { 5 }
-- input { 3 0 } output { 30 }
-- input { 2 2 } output { 4 }
def f (a: i32) (b: i32) : i32 =
  match (a, b)
  case (0, 0) -> 0
  case (0, y) -> y
  case (x, 0) -> x * 10
  case (x, y) -> x * y
def main a b = f a b
