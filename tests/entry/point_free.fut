-- Point-free entry points: a partially applied SOAC or prelude function.
-- ==
-- entry: negate_all
-- input { [1, -2, 3] } output { [-1, 2, -3] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry negate_all = map i32.neg

-- The two inputs share the size of `map2`, so their sizes must agree.
-- ==
-- entry: pairwise_max
-- input { [1, 5, 3] [4, 2, 6] } output { [4, 5, 6] }
-- input { [1, 5] [4, 2, 6] } error: .
entry pairwise_max = map2 i32.max

-- ==
-- entry: total
-- input { [1f32, 2f32, 3.5f32] } output { 6.5f32 }
entry total = reduce (+) 0f32

-- Sizes named in the return type bind the inputs' sizes.
-- ==
-- entry: outer
-- input { [1f32, 2f32] [10f32, 20f32, 30f32] }
-- output { [[10f32, 20f32, 30f32], [20f32, 40f32, 60f32]] }
entry outer [n] [m] : [n]f32 -> [m]f32 -> [n][m]f32 =
  \xs ys -> map (\x -> map (* x) ys) xs

-- A non-entry point-free definition is used at two different sizes.
def firsts = map (\(x: i32, _: i32) -> x)

-- ==
-- entry: two_sizes
-- input { [1, 2] [3, 4, 5] } output { 12 }
entry two_sizes (xs: []i32) (ys: []i32) =
  let a = firsts (zip xs xs)
  let b = firsts (zip ys ys)
  in i32.sum a + i32.sum b - i32.sum xs
