-- Seed 004's Figure 3.1: P x0 x1 and its forward derivative. The values
-- at (1, 2) are the seed's (notes §10.3): P = [3.0990888061629356,
-- 0.15403378213802238]; in the direction (1, 0) the tangent is the first
-- column of the Jacobian, in (0, 1) the second.
-- ==
-- gradcheck input { 1.0 2.0 1.0 0.0 }
-- output { 3.0990888061629356 0.15403378213802238 2.899199465387643 -1.7968909821522119 }
-- gradcheck input { 1.0 2.0 0.0 1.0 }
-- output { 3.0990888061629356 0.15403378213802238 1.5495444030814678 -0.6996229739916471 }

def P (x0: f64, x1: f64) =
  let v0 = f64.sin x0
  let v1 = x1 * v0
  let v2 = v0 * v1
  let y0 = v1 + v2
  let y1 = f64.cos v2
  in (y0, y1)

def main (x0: f64) (x1: f64) (dx0: f64) (dx1: f64) : (f64, f64, f64, f64) =
  let ((y0, y1), (dy0, dy1)) = jvp2 P (x0, x1) (dx0, dx1)
  in (y0, y1, dy0, dy1)
