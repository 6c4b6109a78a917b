-- Arrays of sum-typed values processed with map.
-- ==
-- input { [1, -2, 3, -4] } output { 4 -6 }
type signed = #pos i32 | #neg i32
def main (xs: []i32) =
  let vs = map (\x -> if x >= 0 then #pos x else #neg x) xs : []signed
  let pos = map (\v -> match v case #pos p -> p case #neg _ -> 0) vs
  let neg = map (\v -> match v case #neg n -> n case #pos _ -> 0) vs
  in (i32.sum pos, i32.sum neg)
