-- Mandelbrot escape counts: for each pixel of a w×h grid over the region
-- [-2.25, 0.75] × [-1.5, 1.5] of the complex plane, the number of
-- iterations of z ← z² + c, starting from 0, before |z| exceeds 2, at most
-- `limit`. Single precision.
-- ==
-- nobench input { 8i64 4i64 50i32 }
-- output { [[1i32, 1i32, 1i32, 2i32, 2i32, 2i32, 2i32, 2i32],
--           [1i32, 1i32, 3i32, 3i32, 4i32, 7i32, 34i32, 4i32],
--           [1i32, 50i32, 50i32, 50i32, 50i32, 50i32, 50i32, 7i32],
--           [1i32, 1i32, 3i32, 3i32, 4i32, 7i32, 34i32, 4i32]] }
-- notest input @ data/mandelbrot-1000.in
-- notest input @ data/mandelbrot-4000.in

def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0f32, 0f32, 0i32)
    while i < limit && zr * zr + zi * zi <= 4f32 do
      (zr * zr - zi * zi + cr, 2f32 * zr * zi + ci, i + 1)
  in i

def main (w: i64) (h: i64) (limit: i32) : [h][w]i32 =
  tabulate_2d h w (\y x ->
    escape limit (-2.25f32 + 3f32 * f32.i64 x / f32.i64 w)
                 (-1.5f32 + 3f32 * f32.i64 y / f32.i64 h))
