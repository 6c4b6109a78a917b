-- Loops that work lane by lane (`ogham-opt`'s `lanes`): the multicore
-- tests optimise for two threads, so these loops run there as a map over
-- ranges of lanes, each range running the whole loop (`recur`, `decay`,
-- `ramp`, `mix`, `rows` and `table` with an even number of lanes; an odd
-- number runs as one range), and the loop that mixes its lanes
-- (`normalise`) as written. `recur`, `mix` and `rows` carry a sum of the
-- lanes, which a second loop computes from stacks of the first's lanes;
-- `mix` with a negative count (no iteration); `table` gives rows of lanes
-- to a table of zeros made in the loop. Expected values computed
-- independently in Python (`math.tanh`, `math.exp`, `math.log`).
-- `softmax_grad`'s gradient (by `vjp2`) has a forward loop that saves
-- its lanes' values in place and a return loop whose per-step softmax
-- over all lanes reads no value that loop changes: the rewrite after
-- `ad` runs both as maps over ranges, the softmaxes for all steps before
-- the return loop; with 3 lanes as written. Its expected gradients are
-- the hand-written adjoint recurrence in Python, checked against central
-- differences. `recur_grad` is `recur`'s loss differentiated by `vjp`:
-- after `ad`, its forward loop saves each layer's values in place
-- through accumulators and its return loop adds to the adjoints of the
-- weights the same way, both rewritten per range (with 3 lanes as
-- written); expected values by fourth-order central differences in
-- Python, stable to 1e-9 between step sizes.
-- ==
-- entry: recur
-- input { [[-0.352f64, -0.698f64, 0.302f64, -0.855f64], [0.072f64, -0.269f64, -0.884f64, 0.015f64], [-0.925f64, -0.133f64, -0.86f64, -0.819f64]] [[-0.151f64, 0.654f64, -0.752f64, -0.554f64], [0.255f64, 0.895f64, 0.154f64, -0.207f64], [0.953f64, -0.907f64, 0.717f64, -0.421f64]] [[-0.711f64, -0.764f64, -0.383f64, 0.632f64], [-0.639f64, 0.163f64, 0.278f64, -0.255f64], [0.095f64, -0.874f64, -0.881f64, -0.588f64]] [[0.361f64, -0.145f64, -0.372f64, 0.171f64], [-0.094f64, -0.4f64, 0.589f64, 0.398f64], [-0.512f64, 0.149f64, 0.05f64, 0.75f64], [0.459f64, -0.424f64, 0.96f64, -0.764f64], [-0.164f64, 0.514f64, -0.696f64, -0.022f64]] }
-- output { 21.183327887509133f64 [[0.06084632865419712f64, 0.6016702197959115f64, 0.3171984486013329f64, -0.537797492492962f64], [0.013751139608099984f64, 0.5917748584170256f64, 0.027183398512275272f64, 0.10870723982119278f64], [0.002219304196294219f64, -0.5385395601284985f64, 0.14958095718258183f64, 0.03639802924663389f64]] }
-- input { [[-0.922f64, 0.336f64, 0.529f64], [0.146f64, 0.751f64, -0.373f64]] [[0.391f64, 0.189f64, 0.16f64], [-0.088f64, 0.68f64, 0.889f64]] [[-0.052f64, 0.328f64, -0.879f64], [0.403f64, 0.294f64, 0.986f64]] [[0.644f64, -0.431f64, -0.228f64], [0.337f64, -0.955f64, -0.077f64], [-0.664f64, -0.766f64, -0.882f64], [0.536f64, -0.741f64, -0.505f64]] }
-- output { 10.258251767598384f64 [[0.32102942318144634f64, -0.20398896799533398f64, -0.21880122318102407f64], [-0.02616971833981374f64, -0.20235040996271228f64, -0.10445407357250283f64]] }
-- input { [[-0.218f64], [0.743f64]] [[-0.839f64], [-0.102f64]] [[0.099f64], [0.767f64]] [[0.639f64], [0.728f64], [-0.443f64]] }
-- output { 2.207709445220484f64 [[0.4402100966434107f64], [0.266508615810588f64]] }
-- input { [[-0.169f64, -0.282f64, 0.768f64, 0.915f64, -0.698f64, -0.648f64], [-0.536f64, -0.533f64, -0.03f64, 0.178f64, -0.475f64, -0.992f64]] [[-0.162f64, -0.261f64, 0.133f64, 0.906f64, 0.381f64, 0.031f64], [0.235f64, 0.352f64, -0.892f64, 0.799f64, 0.56f64, 0.749f64]] [[0.596f64, -0.215f64, -0.202f64, -0.793f64, 0.269f64, -0.876f64], [-0.865f64, -0.582f64, -0.675f64, -0.32f64, -0.895f64, -1.0f64]] [[-0.697f64, -0.797f64, -0.273f64, -0.949f64, 0.749f64, 0.228f64], [-0.703f64, -0.495f64, -0.305f64, -0.272f64, -0.754f64, 0.698f64], [0.986f64, -0.068f64, -0.032f64, -0.828f64, -0.796f64, -0.315f64], [-0.47f64, 0.658f64, -0.677f64, -0.954f64, 0.902f64, 0.057f64], [-0.707f64, 0.086f64, -0.946f64, 0.056f64, 0.957f64, 0.727f64], [0.392f64, -0.478f64, -0.267f64, -0.666f64, 0.544f64, 0.065f64], [0.558f64, -0.341f64, -0.554f64, 0.623f64, 0.97f64, 0.705f64]] }
-- output { 50.79148941761714f64 [[-0.07678800592430748f64, 0.055954425047075554f64, -0.2517121213664556f64, -0.19923618174459218f64, 0.26999572670876015f64, 0.06181205180622199f64], [0.0002624348803717967f64, 0.017185579366417382f64, 0.2150180363205179f64, -0.26783443690330655f64, 0.1139608598864286f64, 0.5560562206397234f64]] }
-- ==
-- entry: decay
-- input { [1.22f64, 1.27f64, 0.96f64, -1.09f64, 0.07f64, -0.58f64] [-1.88f64, -1.89f64, -0.88f64, -0.96f64, 0.77f64, 1.83f64] 5i64 }
-- output { [-6.452099839999998f64, -6.89201163f64, -0.75981312f64, 0.92596224f64, 1.3948573100000001f64, 1.6243775400000002f64] 10i64 }
-- input { [-0.21f64, 1.75f64, 1.95f64, 1.82f64, -0.54f64] [-1.12f64, -1.09f64, -1.21f64, -1.18f64, 0.5f64] 4i64 }
-- output { [-0.3834240000000002f64, 1.9891750000000004f64, 2.6449949999999998f64, 2.354168f64, 1.365f64] 6i64 }
-- input { empty([0]f64) empty([0]f64) 3i64 }
-- output { empty([0]f64) 3i64 }
-- input { [1.6f64, 1.36f64] [-0.08f64, 0.61f64] 0i64 }
-- output { [1.6f64, 1.36f64] 0i64 }
-- ==
-- entry: normalise
-- input { [1.0f64, 2.0f64, 3.0f64, 4.0f64] 3i64 }
-- output { [1.244f64, 1.248f64, 1.252f64, 1.256f64] }
-- input { [1.0f64, 2.0f64, 3.0f64] 2i64 }
-- output { [1.2916666666666667f64, 1.3333333333333333f64, 1.375f64] }
-- ==
-- entry: ramp
-- input { 6i64 3i64 }
-- output { [0.0f64, 1.75f64, 3.5f64, 5.25f64, 7.0f64, 8.75f64] }
-- input { 3i64 4i64 }
-- output { [0.0f64, 1.875f64, 3.75f64] }
-- ==
-- entry: mix
-- input { [0.5f64, -1.25f64, 2.0f64, 0.0f64] 3i64 }
-- output { 19.027365954339515f64 [1.9560713251795878f64, 1.817940474356272f64, 1.9611962097370426f64, 1.9426807890983486f64] }
-- input { [0.5f64, -1.25f64] -2i64 }
-- output { 0.0f64 [0.5f64, -1.25f64] }
-- input { [1.5f64, -0.5f64, 0.25f64, 3.0f64, -2.0f64, 1.0f64] 5i64 }
-- output { 52.741100892947344f64 [1.9611777545748375f64, 1.9608251471212625f64, 1.9611227752139795f64, 1.9611808503242112f64, 1.9598731251477637f64, 1.9611714287548265f64] }
-- ==
-- entry: rows
-- input { [[0.5f64, -0.25f64, 0.75f64], [1.0f64, 0.5f64, -0.5f64], [-0.75f64, 0.25f64, 0.125f64], [0.375f64, -1.0f64, 0.625f64]] [[0.1f64, 0.2f64, 0.3f64], [-0.1f64, -0.2f64, -0.3f64], [0.5f64, 0.0f64, -0.5f64], [0.25f64, 0.75f64, -0.25f64]] [[0.3f64, -0.6f64, 0.9f64], [-0.2f64, 0.4f64, 0.1f64]] }
-- output { 1.6461753040816625f64 [[-0.03180150066022059f64, 0.49519322136636f64, 0.6087769349225272f64], [-0.0026246737480220476f64, 0.09750533288515544f64, -0.2829658863950827f64], [-0.14287104887806934f64, 0.2596542340451291f64, 0.18345948154010125f64], [-0.05945907068292109f64, 0.854892419378469f64, 0.45788222236575077f64]] }
-- ==
-- entry: table
-- input { 4i64 3i64 }
-- output { [[3.25f64, 3.375f64, 3.5f64, 3.625f64], [4.25f64, 4.375f64, 4.5f64, 4.625f64]] }
-- input { 6i64 2i64 }
-- output { [[1.5f64, 1.75f64, 2.0f64, 2.25f64, 2.5f64, 2.75f64], [2.5f64, 2.75f64, 3.0f64, 3.25f64, 3.5f64, 3.75f64]] }

def cell (w: f64) (u: f64) (h: f64) (x: f64) : f64 = f64.tanh (w * h + u * x)

-- Layers of a diagonal recurrence (lanes on axis 1 of `hs`), and a loss
-- that mixes the lanes without feeding them back: a second loop computes
-- it from the first's stacked tops.
entry recur [l][b][c] (ws: [l][b]f64) (us: [l][b]f64) (h0: [l][b]f64) (seq: [c][b]f64) : (f64, [l][b]f64) =
  let (hs, total) =
    loop (hs, total) = (copy h0, 0) for t < c do
      let (hs', top) =
        loop (hs', x) = (copy hs, seq[t]) for i < l do
          let h = map4 cell ws[i] us[i] hs[i] x
          in (hs' with [i] = h, h)
      let m = f64.sum (map f64.exp top)
      in (hs', total + f64.log m * f64.i64 (t + 1))
  in (total, hs)

-- Lanes on axis 0, a branch on the iteration, and a counter the same in
-- every range.
entry decay [b] (xs: [b]f64) (rates: [b]f64) (n: i64) : ([b]f64, i64) =
  loop (xs, k) = (copy xs, 0) for t < n do
    let xs' = if t % 2 == 0 then map2 (*) xs rates else map (+ 1) xs
    in (xs', k + t)

-- Every lane reads the sum of all: not split.
entry normalise [b] (xs: [b]f64) (n: i64) : [b]f64 =
  loop xs = copy xs for _t < n do
    let s = f64.sum xs
    in map (\x -> x / s + 1) xs

-- A lane's own index (`iota`, the same array in every range, sliced).
entry ramp (b: i64) (n: i64) : [b]f64 =
  loop xs = replicate b 0 for _t < n do
    map2 (\x j -> x * 0.5 + f64.i64 j) xs (iota b)

-- A loop whose count may be negative (it then runs no iteration), with a
-- sum of the lanes: the stacks' length is the count of iterations.
entry mix [b] (xs: [b]f64) (n: i64) : (f64, [b]f64) =
  let (xs, total) =
    loop (xs, total) = (copy xs, 0) for _t < n do
      let xs' = map (\x -> f64.tanh x + 1) xs
      in (xs', total + f64.sum xs')
  in (total, xs)

-- A map over rows of lanes: the rows are the lanes here (the map of
-- width l), and the sum of row 0 mixes them.
entry rows [l][b][c] (ws: [l][b]f64) (h0: [l][b]f64) (seq: [c][b]f64) : (f64, [l][b]f64) =
  let (hs, total) =
    loop (hs, total) = (copy h0, 0) for t < c do
      let hs' = map2 (\w h -> map3 (\w h x -> f64.tanh (w * h + x)) w h seq[t]) ws hs
      in (hs', total + f64.sum hs'[0])
  in (total, hs)

-- A table of zeros (the same in every range) given rows of lanes.
entry table (b: i64) (n: i64) : [2][b]f64 =
  let tab0 = [replicate b 0, map f64.i64 (iota b)]
  in loop tab = tab0 for t < n do
       let r = map (\x -> x * 0.5 + f64.i64 t) tab[1]
       let z = replicate 2 (replicate b 0)
       let z = z with [0] = r
       in z with [1] = map (+ 1) r

-- ==
-- entry: softmax_grad
-- input { [-0.53f64, -1.05f64, 0.45f64, -1.28f64] [[0.07f64, -0.27f64, -0.88f64, 0.01f64], [-0.93f64, -0.13f64, -0.86f64, -0.82f64], [-0.15f64, 0.65f64, -0.75f64, -0.55f64], [0.25f64, 0.9f64, 0.15f64, -0.21f64], [0.95f64, -0.91f64, 0.72f64, -0.42f64]] }
-- output { 6.785825456825875f64 [-0.05482516902482976f64, 0.036877893005926504f64, -0.3888717068265159f64, -0.4081140150686467f64] }
-- input { [-1.07f64, -1.15f64, -0.57f64] [[0.63f64, -0.64f64, 0.16f64], [0.28f64, -0.26f64, 0.1f64], [-0.87f64, -0.88f64, -0.59f64], [0.36f64, -0.14f64, -0.37f64]] }
-- output { 4.495571829531853f64 [-0.08636974354982299f64, -0.39689162731616656f64, -0.06476279795781342f64] }
-- input { [0.26f64, -0.14f64, -0.6f64, 0.88f64, 0.6f64, -0.77f64] [[0.15f64, 0.05f64, 0.75f64, 0.46f64, -0.42f64, 0.96f64], [-0.76f64, -0.16f64, 0.51f64, -0.7f64, -0.02f64, -0.92f64], [0.34f64, 0.53f64, 0.15f64, 0.75f64, -0.37f64, 0.39f64]] }
-- output { 5.738285250313282f64 [-0.07139399576250013f64, -0.016309647321264262f64, 0.12828529663333452f64, 0.06881782131658704f64, -0.09234245097201912f64, -0.08627979805080305f64] }
-- input { [0.28f64, 0.24f64] empty([0][2]f64) }
-- output { 0f64 [0.0f64, 0.0f64] }

entry softmax_grad [n][b] (w: [b]f64) (xs: [n][b]f64) : (f64, [b]f64) =
  let f (w: [b]f64) =
    let (_, total) =
      loop (h, total) = (replicate b 0f64, 0f64) for t < n do
        let h' = map3 (\h w x -> f64.tanh (h * w + x)) h w xs[t]
        in (h', total + f64.log (f64.sum (map f64.exp h')))
    in total
  in vjp2 f w 1

-- ==
-- entry: recur_grad
-- input { [[-0.1f64, 0.12f64, 0.85f64, -0.07f64], [0.02f64, 0.17f64, -0.63f64, 0.02f64]] [[0.26f64, 0.59f64, -0.81f64, -0.39f64], [-0.82f64, 0.62f64, 0.39f64, -0.92f64]] [[0.96f64, 0.93f64, 0.31f64, 0.23f64], [-0.69f64, -0.97f64, 0.06f64, -0.88f64]] [[-0.62f64, -0.52f64, -0.94f64, -0.07f64], [-0.12f64, 0.68f64, 0.04f64, 0.28f64], [-0.0f64, 0.32f64, -0.09f64, -0.44f64]] }
-- output { [[-0.09266294545895447f64, 0.28892252985931083f64, 0.2645508477572278f64, 0.009170203106497372f64], [-0.0993803923539834f64, -0.30223228085842396f64, 0.054507520143391254f64, -0.16619994229305488f64]] [[0.15610433986938213f64, 0.3239984974416169f64, -0.10409426727697733f64, 0.12500193542190155f64], [-0.07406286830047293f64, 0.3751198950515307f64, 0.6208861342097786f64, 0.05145799963912622f64]] }
-- input { [[1.0f64, 0.99f64, 0.68f64], [0.42f64, -0.37f64, -0.54f64], [-0.42f64, -0.86f64, 0.53f64]] [[-0.2f64, 0.69f64, -0.23f64], [0.92f64, 0.69f64, -1.0f64], [-0.58f64, 0.82f64, -0.06f64]] [[0.96f64, -0.21f64, -0.85f64], [0.26f64, 0.56f64, -0.46f64], [-0.83f64, -0.33f64, 0.93f64]] [[0.52f64, -0.76f64, -0.51f64], [-0.8f64, -0.88f64, 0.59f64]] }
-- output { [[-0.09829549776278293f64, -0.04335200687988205f64, -0.04584859785161654f64], [-0.09186153531367165f64, -0.39226603892587397f64, -0.024718886511750544f64], [-0.10660866383978747f64, -0.01972939217997904f64, 1.0521075804111508f64]] [[0.011962752749135792f64, -0.035059871650311436f64, 0.008359906492986605f64], [-0.12933192326129253f64, -0.205919214155692f64, 0.02523153911101102f64], [0.37221658450474016f64, -0.06686515660788335f64, 0.509750279290196f64]] }

entry recur_grad [l][b][c] (ws: [l][b]f64) (us: [l][b]f64) (h0: [l][b]f64) (seq: [c][b]f64) : ([l][b]f64, [l][b]f64) =
  vjp (\(ws, us) -> (recur ws us h0 seq).0) (ws, us) 1
