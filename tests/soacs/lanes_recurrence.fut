-- A recurrence over time whose state is l rows of b lanes, each layer's
-- new row computed lane by lane from the layer below (the shape of a
-- diagonal LSTM), and its gradient by `vjp`. With several threads the
-- `lanes` pass runs it as a map over ranges of lanes, each range's whole
-- loop one kernel, with its state in the kernel's own buffers and its
-- saved values stored into the accumulators through the loops.
--
-- Every value is a dyadic rational of few bits, so sums come out exactly
-- in any order. Expected values by exact rational arithmetic in Python
-- (the gradient by forward-mode dual numbers, one weight at a time):
-- total = 21/8, and d total / d w as below (11/32, 15/4, 3/4, -31/16;
-- 11/4, 15/8, 5/4, 51/8).
-- ==
-- entry: recur
-- input { [[1.0, 0.5, -1.0, 2.0], [0.25, 1.0, 0.5, -0.5]]
--         [[1.0, 0.0, 2.0, -1.0], [0.0, 1.0, 1.0, 1.0]]
--         [[1.0, 2.0, 0.0, 1.0], [-1.0, 1.0, 1.0, 2.0], [2.0, 0.0, 1.0, 1.0]] }
-- output { [[1.0, 0.25, -0.5, 2.125], [0.3125, 0.75, 0.0, -1.5625]] 2.625 }

def recurrence [l][b][c] (w: [l][b]f64) (state: [l][b]f64) (seq: [c][b]f64) : ([l][b]f64, f64) =
  loop (hs, total) = (copy state, 0) for t < c do
    let x = map (* 0.5) seq[t]
    let (hs', top) =
      loop (hs', x) = (copy hs, x) for i < l do
        let h = map3 (\h x w -> h * 0.5 + x * w) hs[i] x w[i]
        in (hs' with [i] = h, h)
    in (hs', total + f64.sum top)

entry recur [l][b][c] (w: [l][b]f64) (state: [l][b]f64) (seq: [c][b]f64) : ([l][b]f64, f64) =
  recurrence w state seq

-- ==
-- entry: grad
-- input { [[1.0, 0.5, -1.0, 2.0], [0.25, 1.0, 0.5, -0.5]]
--         [[1.0, 0.0, 2.0, -1.0], [0.0, 1.0, 1.0, 1.0]]
--         [[1.0, 2.0, 0.0, 1.0], [-1.0, 1.0, 1.0, 2.0], [2.0, 0.0, 1.0, 1.0]] }
-- output { [[0.34375, 3.75, 0.75, -1.9375], [2.75, 1.875, 1.25, 6.375]] }

entry grad [l][b][c] (w: [l][b]f64) (state: [l][b]f64) (seq: [c][b]f64) : [l][b]f64 =
  vjp (\w -> (recurrence w state seq).1) w 1
