-- An existential size is a variable of size polynomials: the third array
-- of `split3` has size `n + m` over the two existential sizes, so a
-- pattern naming those two sizes can say so, and `?k + n` (the size of
-- `filter p xs ++ xs`) is a size of its own, equal to itself only.
-- ==
-- input { 4 } output { 2i64 3i64 [4, 4, 4, 4, 4] }
-- input { 0 } output { 2i64 3i64 [0, 0, 0, 0, 0] }

module m : {
  val split3 : i32 -> ?[n][m].([n]i32, [m]i32, [n + m]i32)
} = {
  def split3 x = (replicate 2 x, replicate 3 x, replicate 5 x)
}

def main (x: i32) =
  let [a][b] (_: [a]i32, _: [b]i32, both: [a + b]i32) = m.split3 x
  in (a, b, both)

-- ==
-- entry: twice
-- input { [1, -2, 3] } output { 2i64 5i64 [1, 3, 1, -2, 3] }
-- input { [-1] } output { 0i64 1i64 [-1] }

entry twice (xs: []i32) =
  let ys = filter (> 0) xs
  let zs = ys ++ xs
  -- `zs` has size `?k + n`: it zips with itself, and its length is the sum.
  let (p, _) = unzip (zip zs zs)
  in (length ys, length p, p)
