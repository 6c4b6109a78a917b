-- Histograms binned by `x % k` into k buckets: `%` rounds down, so every
-- bin is in 0 .. k, negative x included, and the C backends test only
-- k > 0 instead of every index (`ogham_imp::lower::hist`); `%%` rounds
-- towards zero, so the negative remainders other than 0 are out of range
-- and skipped, as always. Expected counts computed in Python (`x % k`,
-- and the truncated remainder).
-- ==
-- entry: mod_bins
-- input { 7i64 [-10i64, 35i64, 29i64, -24i64, 7i64, 37i64, 20i64, 40i64, 34i64, -32i64, 37i64, -39i64,
--   20i64, -7i64, 30i64, -11i64, -16i64, 20i64, 29i64, 30i64, 20i64, 10i64, -21i64, -11i64, -21i64,
--   26i64, 9i64, -39i64, -32i64, -20i64, 35i64, -35i64, -2i64, -37i64, -6i64, 20i64, 36i64, 9i64,
--   14i64, 10i64, 33i64, 16i64, -23i64, 6i64, -28i64, -36i64, -23i64, 23i64, -13i64, -7i64, 15i64,
--   40i64, -2i64, 13i64, 24i64, 9i64, 33i64, 4i64, 28i64, 34i64] }
-- output { [11i32, 7i32, 9i32, 9i32, 3i32, 11i32, 10i32] }
-- input { 0i64 empty([0]i64) }
-- output { empty([0]i32) }

-- ==
-- entry: rem_bins
-- input { 7i64 [-10i64, 35i64, 29i64, -24i64, 7i64, 37i64, 20i64, 40i64, 34i64, -32i64, 37i64, -39i64,
--   20i64, -7i64, 30i64, -11i64, -16i64, 20i64, 29i64, 30i64, 20i64, 10i64, -21i64, -11i64, -21i64,
--   26i64, 9i64, -39i64, -32i64, -20i64, 35i64, -35i64, -2i64, -37i64, -6i64, 20i64, 36i64, 9i64,
--   14i64, 10i64, 33i64, 16i64, -23i64, 6i64, -28i64, -36i64, -23i64, 23i64, -13i64, -7i64, 15i64,
--   40i64, -2i64, 13i64, 24i64, 9i64, 33i64, 4i64, 28i64, 34i64] }
-- output { [11i32, 4i32, 9i32, 3i32, 1i32, 5i32, 9i32] }

-- Enough values for the multicore backend's partial histograms.
-- ==
-- entry: mod_iota
-- input { 100000i64 13i64 }
-- output { [7693i32, 7692i32, 7693i32, 7692i32, 7692i32, 7692i32, 7692i32, 7692i32, 7692i32, 7693i32,
--   7692i32, 7693i32, 7692i32] }

entry mod_bins [n] (k: i64) (xs: [n]i64) : [k]i32 =
  hist (+) 0 k (map (\x -> x % k) xs) (replicate n 1)

entry rem_bins [n] (k: i64) (xs: [n]i64) : [k]i32 =
  hist (+) 0 k (map (\x -> x %% k) xs) (replicate n 1)

entry mod_iota (n: i64) (k: i64) : [k]i32 =
  hist (+) 0 k (map (\i -> (i * 7919 - n * 40) % k) (iota n)) (replicate n 1)
