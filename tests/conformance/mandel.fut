-- A small Mandelbrot escape-time computation.
-- ==
-- input { 4i64 3i64 10 }
-- output { [[1, 3, 4, 4], [1, 10, 10, 10], [1, 10, 10, 10]] }
def divergence (c_re: f64) (c_im: f64) (limit: i32) : i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0.0, 0.0, 0)
    while i < limit && zr * zr + zi * zi < 4.0 do
      (zr * zr - zi * zi + c_re, 2.0 * zr * zi + c_im, i + 1)
  in i
def main (w: i64) (h: i64) (limit: i32) : [h][w]i32 =
  tabulate_2d h w (\y x ->
    let c_re = -2.0 + 3.0 * f64.i64 x / f64.i64 w
    let c_im = -1.0 + 2.0 * f64.i64 y / f64.i64 h
    in divergence c_re c_im limit)
