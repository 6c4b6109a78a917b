-- Escape-time Mandelbrot: for every pixel of a w×h grid over the region
-- [-2.0, 0.5] × [-1.0, 1.0], the number of iterations (at most `limit`)
-- before |z| exceeds 2. Prints the grid and the total iteration count.
-- ==
-- input { 8i64 4i64 50i32 }
-- output { [[1, 2, 3, 3, 3, 4, 13, 4], [1, 3, 3, 5, 6, 50, 50, 50],
--           [50, 50, 50, 50, 50, 50, 50, 50], [1, 3, 3, 5, 6, 50, 50, 50]] 769i64 }

def escape (limit: i32) (c_re: f64) (c_im: f64) : i32 =
  let (_, _, i) =
    loop (z_re, z_im, i) = (0.0, 0.0, 0) while i < limit && z_re * z_re + z_im * z_im <= 4.0 do
      (z_re * z_re - z_im * z_im + c_re, 2.0 * z_re * z_im + c_im, i + 1)
  in i

def main (w: i64) (h: i64) (limit: i32) : ([h][w]i32, i64) =
  let grid =
    tabulate_2d h w (\y x ->
      escape limit (-2.0 + 2.5 * f64.i64 x / f64.i64 w)
                   (-1.0 + 2.0 * f64.i64 y / f64.i64 h))
  in (grid, i64.sum (map i64.i32 (flatten grid)))
