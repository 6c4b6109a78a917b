-- Reversing an array in place with swaps inside a loop.
-- ==
-- input { [1, 2, 3, 4, 5] } output { [5, 4, 3, 2, 1] }
def main [n] (xs: *[n]i32) =
  loop xs for i < n / 2 do
    let a = xs[i]
    let b = xs[n - 1 - i]
    let xs[i] = b
    let xs[n - 1 - i] = a
    in xs
