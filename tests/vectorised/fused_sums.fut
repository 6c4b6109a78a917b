-- Float sums of products: a `reduce` or `scan` by `+` may add each product
-- it sums unrounded (a fused multiply-add, docs/language.md), which the
-- compiled code does on CPUs with FMA. Products outside such sums are
-- rounded as written, so x*x - x*x is exactly zero even where x*x is
-- inexact (a contracting C compiler would make it fma(x, x, -(x*x)), the
-- rounding error of x*x).

-- Integer-valued products and sums, exact either way:
-- sum of i * 2i for i < 1000 = 2 * 999*1000*1999/6 = 665667000, and the
-- running sums of i * i, whose last is 332833500.
-- ==
-- entry: dot
-- input { 1000i64 } output { 665667000.0 332833500.0f32 332833500.0 }
entry dot (n: i64) : (f64, f32, f64) =
  let xs = map f64.i64 (iota n)
  let ys = map (2 *) xs
  let fs = map f32.f64 xs
  in ( f64.sum (map2 (*) xs ys)
     , f32.sum (map2 (*) fs fs)
     , last (scan (+) 0 (map2 (*) xs xs)) )

-- The products that are not the terms of a sum stay rounded: every
-- difference is exactly zero, and so is their sum.
-- ==
-- entry: rounded
-- input { [1.0000001, 3.3, 0.1, 1e150, 7.0] }
-- output { true true }
entry rounded (xs: []f64) : (bool, bool) =
  ( all (\x -> x * x - x * x == 0) xs
  , f64.sum (map (\x -> x * x - x * x) xs) == 0 )

-- Dot products of rows (a matrix-vector product, jammed rows in lanes)
-- and of rows and columns (a tiled matrix product), with products of
-- small integers: A = [[i + j]] (5x70), v = [j % 3], B = [[i - j]] (70x40).
-- Row i of A·v: sum_j (i + j)(j % 3) = i*69 + sum_j j*(j % 3) = 69i + 2392
-- (j % 3 over 0..69 sums to 69; the j < 70 with j%3 = 1 are 1, 4, .., 67,
-- summing to 782, those with j%3 = 2 are 2, 5, .., 68, summing to 805:
-- 782 + 2*805 = 2392).
-- (A·B)[i][k] = sum_j (i + j)(j - k) = 70*(-i*k) + (i - k)*2415 + 111895
-- (sum of j = 2415, of j^2 = 111895); [0][0] = 111895, [4][39] =
-- -10920 - 84525 + 111895 = 16450.
-- ==
-- entry: products
-- input { 5i64 70i64 40i64 }
-- output { [2392.0, 2461.0, 2530.0, 2599.0, 2668.0] 111895.0 16450.0 }
entry products (m: i64) (n: i64) (p: i64) : ([m]f64, f64, f64) =
  let a = tabulate_2d m n (\i j -> f64.i64 (i + j))
  let v = tabulate n (\j -> f64.i64 (j % 3))
  let b = tabulate_2d n p (\j k -> f64.i64 (j - k))
  let av = map (\r -> f64.sum (map2 (*) r v)) a
  let ab = map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a
  in (av, ab[0][0], ab[m - 1][p - 1])
