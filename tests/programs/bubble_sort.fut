-- Bubble sort with nested sequential loops and in-place updates.
-- ==
-- input { [5, 1, 4, 2, 8] } output { [1, 2, 4, 5, 8] }
-- input { [3, 3, -1, 0] } output { [-1, 0, 3, 3] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main [n] (xs: [n]i32) : [n]i32 =
  loop xs = copy xs for i < n do
    loop xs for j < n - 1 - i do
      if xs[j] > xs[j + 1]
      then let a = xs[j]
           let b = xs[j + 1]
           let xs[j] = b
           let xs[j + 1] = a
           in xs
      else xs
