-- A recurrent network's gradient, as in the D-LSTM benchmark: a sequence
-- of steps, each running `layers` cells (a call of `cell`, a function of
-- maps with elementary functions), then rotating the state. Reverse mode
-- saves, in the forward loops, what the return sweep would otherwise
-- compute again: the inner loop's results and saved arrays once per
-- step, and the residuals of `cell`'s forward half (its gates) once per
-- cell (`ogham-opt/src/ad/rev/tape.rs` and `calls.rs`). So the gradient
-- computes every `tanh` and `exp` once, as the objective does; the test
-- in `crates/ogham-driver/tests/optimised_ir.rs` counts them.
--
-- The expected values come from an independent computation with dual
-- numbers (exact derivatives, one direction per parameter) in Python.
-- With no steps the state stays the initial one: only its adjoint (2·h0)
-- is not zero.
-- ==
-- entry: objective
-- gradcheck input { 3i64 2i64 [0.5, -0.3, 0.8] [0.1, 0.2, -0.4] [1.0, -0.5, 0.25] }
-- output { 0.04117648916198492 }
-- input { 0i64 2i64 [0.5, -0.3, 0.8] [0.1, 0.2, -0.4] [1.0, -0.5, 0.25] }
-- output { 1.3125 }

-- ==
-- entry: gradient
-- input { 3i64 2i64 [0.5, -0.3, 0.8] [0.1, 0.2, -0.4] [1.0, -0.5, 0.25] }
-- output { [-0.019460943177836226, -0.05277734233598765, -0.032545368144404924]
--          [0.05384536307028168, 0.1586118099502932, -0.10587838969270422]
--          [-0.004917074973578698, 0.006948456828097504, -0.013506016938409304] }
-- input { 0i64 2i64 [0.5, -0.3, 0.8] [0.1, 0.2, -0.4] [1.0, -0.5, 0.25] }
-- output { [0.0, 0.0, 0.0] [0.0, 0.0, 0.0] [2.0, -1.0, 0.5] }

def sigmoid (x: f64) : f64 = 1 / (1 + f64.exp (-x))

def cell [n] (w: [n]f64) (b: [n]f64) (h: [n]f64) : [n]f64 =
  let gate = map3 (\w b h -> sigmoid (w * h + b)) w b h
  let cand = map3 (\w b h -> f64.tanh (w * h - b)) w b h
  in map3 (\g c h -> g * c + (1 - g) * h) gate cand h

entry objective [n] (steps: i64) (layers: i64) (w: [n]f64) (b: [n]f64) (h0: [n]f64) : f64 =
  let h =
    loop h = h0 for _t < steps do
      let h = loop h for _l < layers do cell w b h
      in map (\i -> h[(i + 1) % n]) (iota n)
  in f64.sum (map (\x -> x * x) h)

entry gradient [n] (steps: i64) (layers: i64) (w: [n]f64) (b: [n]f64) (h0: [n]f64) : ([n]f64, [n]f64, [n]f64) =
  vjp (\(w, b, h0) -> objective steps layers w b h0) (w, b, h0) 1
