-- Black-Scholes as seed 000 writes it (S = K = r = sigma = 1, the time to
-- expiry T from the input): calls and puts are two separate maps, each
-- recomputing d1 and d2. The middle end fuses them into one loop and
-- shares sqrt T, d1, d2 and exp (-r*T) between them; the values are those
-- of the formulas, checked with an independent computation (Python,
-- float64, the same polynomial normCdf) to within f32 tolerance.
-- ==
-- input { [0.5f32, 1f32, 2f32] }
-- output { [0.46851228f32, 0.67881795f32, 0.88016398f32]
--          [0.07504294f32, 0.04669739f32, 0.01549927f32] }

def normCdf (d: f32): f32 =
  let a1 = 0.31938153f32
  let a2 = -0.356563782f32
  let a3 = 1.781477937f32
  let a4 = -1.821255978f32
  let a5 = 1.330274429f32
  let rsqrt2pi = 0.39894228040143267793994605993438f32
  let k = 1 / (1 + 0.2316419 * f32.abs d)
  let cnd = rsqrt2pi * f32.exp (-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
  in if d > 0 then 1 - cnd else cnd

def calls (s: f32) (k: f32) (t: f32) (r: f32) (sigma: f32): f32 =
  let d1 = (f32.log (s / k) + (r + sigma * sigma / 2) * t) / (sigma * f32.sqrt t)
  let d2 = d1 - sigma * f32.sqrt t
  in s * normCdf d1 - k * f32.exp (0 - r * t) * normCdf d2

def puts (s: f32) (k: f32) (t: f32) (r: f32) (sigma: f32): f32 =
  let d1 = (f32.log (s / k) + (r + sigma * sigma / 2) * t) / (sigma * f32.sqrt t)
  let d2 = d1 - sigma * f32.sqrt t
  in k * f32.exp (0 - r * t) * normCdf (0 - d2) - s * normCdf (0 - d1)

entry main (arr: []f32): ([]f32, []f32) =
  let (s, k, r, sigma) = (1f32, 1f32, 1f32, 1f32)
  let cs = map (\t -> calls s k t r sigma) arr
  let ps = map (\t -> puts s k t r sigma) arr
  in (cs, ps)
