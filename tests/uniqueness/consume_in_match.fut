-- A unique parameter updated in one case and returned in the other.
-- ==
-- input { 2i64 } output { [0i64, 1i64, 5i64] }
-- input { 0i64 } output { [5i64] }

type op = #set i64 i64 | #keep

def apply (o: op) (xs: *[]i64) : *[]i64 =
  match o
  case #set i v -> xs with [i] = v
  case #keep -> xs

def main (n: i64) = apply (#set n 5) (iota (n + 1))
