-- Insertion sort with a while loop shifting elements to the right.
-- ==
-- input { [5, 2, 9, 1, 5, 6] } output { [1, 2, 5, 5, 6, 9] }
-- input { [1] } output { [1] }
-- input { [4, 3, 2, 1] } output { [1, 2, 3, 4] }
def main [n] (xs: [n]i32) : [n]i32 =
  loop xs = copy xs for i in 1..<n do
    let key = xs[i]
    let (xs, j) =
      loop (xs, j) = (xs, i - 1) while j >= 0 && xs[j] > key do
        let xs[j + 1] = xs[j]
        in (xs, j - 1)
    let xs[j + 1] = key
    in xs
