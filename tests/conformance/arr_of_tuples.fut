-- Arrays of tuples with array components, sorted insertion via loop.
-- ==
-- input { [3, 1, 2] } output { [1, 2, 3] [[1, 1], [2, 2], [3, 3]] }
def insertion_sort [n] (xs: [n]i32) : [n]i32 =
  loop xs = copy xs for i in 1..<n do
    let (xs, _) =
      loop (xs, j) = (xs, i) while j > 0 && xs[j - 1] > xs[j] do
        let tmp = xs[j]
        let xs[j] = xs[j - 1]
        let xs[j - 1] = tmp
        in (xs, j - 1)
    in xs
def main (xs: []i32) =
  let s = insertion_sort xs
  let ps: [](i32, [2]i32) = map (\x -> (x, [x, x])) s
  in (map (.0) ps, map (.1) ps)
