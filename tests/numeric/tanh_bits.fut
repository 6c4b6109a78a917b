-- tanh, which ogham computes itself (not libm's), at points where its
-- result is the correctly rounded one: the bits of tanh to 200 bits
-- (mpmath) rounded to the type, compared as integers, so exactly on every
-- backend. Both sides of the switch from the polynomial to the formula on
-- exp (|x| = 0.55; 0.55 itself is 1 ulp off, within the function's
-- bound, and not here), a subnormal, tiny arguments (tanh x = x), values
-- that round to ±1, and by IEEE: tanh(-0) = -0, tanh(±∞) = ±1, NaN for
-- NaN. f32 rounds the f64 function's result.
-- ==
-- entry: tanh64
-- input {
--   [0.0f64, 5e-324f64, -1e-300f64, 1e-09f64, 0.125f64, -0.25f64, 0.3f64, 0.5f64,
--   0.5499999999999999f64, 0.6f64, 0.75f64, 1.0f64, -1.5f64, 2.0f64, 3.0f64, 5.0f64,
--   10.0f64, 19.0f64, -20.0f64, 40.0f64, 710.0f64, 1e300f64, -0.0f64, f64.inf,
--   -f64.inf]
--   f64.nan
-- }
-- output {
--   [0u64, 1u64, 9341994084744098649u64, 4472406533629990549u64, 4593624998782220341u64,
--   13821364181919210630u64, 4598919441409447162u64, 4601996382546856691u64,
--   4602683504818491906u64, 4603012532004900092u64, 4603896132715868712u64,
--   4605035049859216276u64, 13829700107075712375u64, 4606858408046085076u64,
--   4607137875981110016u64, 4607181600984719121u64, 4607182418762886965u64,
--   4607182418800017407u64, 13830554455654793216u64, 4607182418800017408u64,
--   4607182418800017408u64, 4607182418800017408u64, 9223372036854775808u64,
--   4607182418800017408u64, 13830554455654793216u64]
--   true
-- }

-- ==
-- entry: tanh32
-- input {
--   [0.0f32, 1.0000000031710769e-30f32, 0.125f32, -0.25f32, 0.30000001192092896f32,
--   0.5f32, 0.550000011920929f32, 0.6000000238418579f32, 1.0f32, -1.5f32, 2.0f32,
--   3.0f32, 5.0f32, 9.0f32, 10.0f32, 100.0f32, -0.0f32, f32.inf]
--   f32.nan
-- }
-- output {
--   [0u32, 228737632u32, 1040100553u32, 3195718645u32, 1049962222u32, 1055693471u32,
--   1056973336u32, 1057586197u32, 1061353430u32, 3211245516u32, 1064749699u32,
--   1065270249u32, 1065351693u32, 1065353215u32, 1065353216u32, 1065353216u32,
--   2147483648u32, 1065353216u32]
--   true
-- }

entry tanh64 (xs: []f64) (nan: f64) : ([]u64, bool) =
  (map (\x -> f64.to_bits (f64.tanh x)) xs, f64.isnan (f64.tanh nan))

entry tanh32 (xs: []f32) (nan: f32) : ([]u32, bool) =
  (map (\x -> f32.to_bits (f32.tanh x)) xs, f32.isnan (f32.tanh nan))
