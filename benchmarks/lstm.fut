-- The ADBench D-LSTM objective and its gradient by `vjp`.
--
-- l layers of a "diagonal" LSTM cell of width b (every weight multiplies
-- one element: no matrix products), run over a sequence of c vectors of
-- width b. main [2l][4b]: row 2i holds layer i's weights, row 2i+1 its
-- biases, each as four blocks of b (forget gate, input gate, output gate,
-- cell change). extra [3][b]: the input scaling, the output scaling and
-- the output bias. state [2l][b]: row 2i is layer i's initial hidden
-- state, row 2i+1 its initial cell state. At step t the input seq[t],
-- scaled, goes up through the layers (the forget and output gates see the
-- layer's input, the input gate and the change the layer's hidden state);
-- the top hidden state, scaled and shifted, is the prediction y. The
-- objective is the averaged cross-entropy of log-softmax(y) against
-- seq[t+1]: -Σ_t Σ_j seq[t+1][j]·(y_j - log Σ_j' exp y_j') / ((c-1)·b).
-- The gradient is with respect to main and extra. f64.
-- ==
-- entry: objective
-- gradcheck nobench input {
--   [[-1.34, 0.76, 0.54, -0.08, -1.14, 1.17, 1.23, 0.05, 0.02, -1.06, -1.99, -0.52], [0.34, -1.72,
--   1.18, -1.07, -1.07, -1.83, 1.99, 0.95, 1.5, 0.46, -1.86, -0.68], [-0.01, -1.54, 1.81, -0.53,
--   -1.38, 1.27, -1.5, 1.71, -0.19, 0.21, -0.63, -0.06], [-1.25, -1.85, 1.46, -1.06, 1.12, -1.17,
--   1.88, 1.58, 1.02, 1.05, 0.32, 0.92]] [[-1.51, -0.09, 1.31], [-1.2, 1.69, 1.55], [-0.36, -0.54,
--   -0.19]] [[-0.23, 0.99, -0.23], [-0.95, -0.81, 0.44], [0.99, -0.01, -0.02], [0.1, 0.5, -0.56]]
--   [[4.87, 4.45, 4.98], [1.45, 1.36, 2.79], [7.42, 2.77, 4.78], [2.45, 0.83, 0.53]] }
-- output { 3.1617872937985303 }
-- notest input @ data/lstm-l4-b14-c4096.in

-- ==
-- entry: gradient
-- nobench input {
--   [[-1.34, 0.76, 0.54, -0.08, -1.14, 1.17, 1.23, 0.05, 0.02, -1.06, -1.99, -0.52], [0.34, -1.72,
--   1.18, -1.07, -1.07, -1.83, 1.99, 0.95, 1.5, 0.46, -1.86, -0.68], [-0.01, -1.54, 1.81, -0.53,
--   -1.38, 1.27, -1.5, 1.71, -0.19, 0.21, -0.63, -0.06], [-1.25, -1.85, 1.46, -1.06, 1.12, -1.17,
--   1.88, 1.58, 1.02, 1.05, 0.32, 0.92]] [[-1.51, -0.09, 1.31], [-1.2, 1.69, 1.55], [-0.36, -0.54,
--   -0.19]] [[-0.23, 0.99, -0.23], [-0.95, -0.81, 0.44], [0.99, -0.01, -0.02], [0.1, 0.5, -0.56]]
--   [[4.87, 4.45, 4.98], [1.45, 1.36, 2.79], [7.42, 2.77, 4.78], [2.45, 0.83, 0.53]] }
-- output {
--   [[-0.0001837309223524364, -0.00015308191060272664, -0.0011809414784461464,
--   7.749497990167048e-05, 0.0004710057106552931, 0.0003014720130306886, -0.0037563453033739387,
--   -8.095286382828815e-05, -0.003368847660455429, 0.00010904611904064209, -1.4615996160964555e-05,
--   -0.00017106944338599116], [8.367252647199781e-05, 0.00038290830157445925,
--   -0.0002680163720485276, -0.0005819035890164198, 0.0003614049063447877, 0.002489497519790497,
--   0.0017180772225809744, 0.00023869415139286416, -0.0006960299618277585, -0.001096544719150716,
--   4.542862428747023e-05, -0.002942862987641082], [-0.002204443386550782, -0.004656207103147894,
--   -0.0024162833595055486, 0.019368266581316185, 0.0035898610329782236, -0.006432425794916218,
--   -0.0016983279405059636, -0.0036918880697043885, 0.0029751266591943114, 0.010461462598657167,
--   0.06630406380372475, -0.005087925017968009], [0.018966321292950176, 0.024597640222566643,
--   -0.012194191940035954, 0.08820462877037602, 0.021126747562328796, 0.041726455236463865,
--   0.013477952683794188, 0.01834003311339385, 0.009458273938788704, 0.0525739847404967,
--   0.3505544917889426, 0.033517742332563605]] [[0.0028967584683428343, 0.0013376655027720742,
--   -0.000538233092801548], [-0.10534245787936122, 0.07610664815642317, 0.027030356978321915],
--   [-0.5128561150578882, 0.4738593717587385, 0.03899674329914951]] }
-- notest input @ data/lstm-l4-b14-c4096.in

def sigmoid (x: f64) : f64 = 1 / (1 + f64.exp (-x))

-- One layer: its new hidden and cell states. w and bias: [4][b].
def layer [b] (w: [4][b]f64) (bias: [4][b]f64) (hidden: [b]f64) (cell: [b]f64) (input: [b]f64) : ([b]f64, [b]f64) =
  let forget = map3 (\x w b -> sigmoid (x * w + b)) input w[0] bias[0]
  let ingate = map3 (\h w b -> sigmoid (h * w + b)) hidden w[1] bias[1]
  let outgate = map3 (\x w b -> sigmoid (x * w + b)) input w[2] bias[2]
  let change = map3 (\h w b -> f64.tanh (h * w + b)) hidden w[3] bias[3]
  let cell' = map4 (\c f i ch -> c * f + i * ch) cell forget ingate change
  in (map2 (\o c -> o * f64.tanh c) outgate cell', cell')

entry objective [l2][b4][b][c] (main: [l2][b4]f64) (extra: [3][b]f64) (state: [l2][b]f64) (seq: [c][b]f64) : f64 =
  let l = l2 / 2
  let ws = tabulate l (\i -> tabulate_2d 4 b (\g j -> main[2 * i, g * b + j]))
  let biases = tabulate l (\i -> tabulate_2d 4 b (\g j -> main[2 * i + 1, g * b + j]))
  let hs0 = tabulate l (\i -> state[2 * i])
  let cs0 = tabulate l (\i -> state[2 * i + 1])
  let (_, _, total) =
    loop (hs, cs, total) = (hs0, cs0, 0) for t < c - 1 do
      let x = map2 (*) seq[t] extra[0]
      let (hs', cs', top) =
        loop (hs', cs', x) = (copy hs, copy cs, x) for i < l do
          let (h, cl) = layer ws[i] biases[i] hs[i] cs[i] x
          in (hs' with [i] = h, cs' with [i] = cl, h)
      let y = map3 (\h a b -> h * a + b) top extra[1] extra[2]
      let lse = f64.log (f64.sum (map f64.exp y))
      in (hs', cs', total + f64.sum (map2 (\g v -> g * (v - lse)) seq[t + 1] y))
  in -total / f64.i64 ((c - 1) * b)

entry gradient [l2][b4][b][c] (main: [l2][b4]f64) (extra: [3][b]f64) (state: [l2][b]f64) (seq: [c][b]f64)
    : ([l2][b4]f64, [3][b]f64) =
  vjp (\(m, e) -> objective m e state seq) (main, extra) 1
