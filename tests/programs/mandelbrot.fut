-- Mandelbrot escape counts on a tiny 6x5 grid over [-2, 0.5] x [-1, 1].
-- The count is the number of iterations z := z*z + c performed while |z|^2 <= 4, at most limit.
-- ==
-- input { 6i64 5i64 50 }
-- output { [[1, 2, 3, 4, 50, 2],
--           [1, 3, 5, 50, 50, 5],
--           [50, 50, 50, 50, 50, 5],
--           [1, 3, 5, 50, 50, 5],
--           [1, 2, 3, 4, 50, 2]] }
def escape (limit: i32) (cr: f64) (ci: f64) : i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0.0, 0.0, 0)
    while i < limit && zr * zr + zi * zi <= 4.0 do
      (zr * zr - zi * zi + cr, 2.0 * zr * zi + ci, i + 1)
  in i

def main (w: i64) (h: i64) (limit: i32) : [h][w]i32 =
  tabulate_2d h w (\r c -> escape limit (-2.0 + 0.5 * f64.i64 c) (-1.0 + 0.5 * f64.i64 r))
