-- `min` and `max` on floats ignore a NaN operand (C's fmin and fmax,
-- IEEE 754's minNum and maxNum): only two NaNs give NaN. Checked on
-- scalars that arrive as arguments (nothing folds them), in a map the C
-- compiler vectorises, and in reductions it runs in vector lanes, where
-- `f32.maximum` of NaNs alone is its neutral element, -inf.
-- ==
-- entry: scalars
-- input { f32.nan 2f32 -1f64 f64.nan }
-- output { [2f32, 2f32, 2f32, 2f32] [-1f64, -1f64, -1f64, -1f64] true true }

-- ==
-- entry: lanes
-- input { 100i64 f32.nan }
-- output { 1f32 98f32 -f32.inf 1f64 98f64 4032f32 5667f32 }
-- input { 7i64 f32.nan }
-- output { 1f32 5f32 -f32.inf 1f64 5f64 156f32 336f32 }

entry scalars (n: f32) (x: f32) (y: f64) (m: f64) =
  ( [f32.min n x, f32.min x n, f32.max n x, f32.max x n]
  , [f64.min m y, f64.min y m, f64.max m y, f64.max y m]
  , f32.isnan (f32.min n n)
  , f64.isnan (f64.max m m) )

-- Every third element is NaN; the others are their index.
entry lanes (k: i64) (nan: f32) =
  let xs = tabulate k (\i -> if i % 3 == 0 then nan else f32.i64 i)
  let ys = map f64.f32 xs
  let only_nans = replicate k nan
  -- Against 48, a NaN element gives 48.
  let mins = map (f32.min 48) xs
  let maxs = map (\x -> f32.max x 48) xs
  in ( f32.minimum xs, f32.maximum xs, f32.maximum only_nans
     , f64.minimum ys, f64.maximum ys
     , f32.sum mins, f32.sum maxs )
