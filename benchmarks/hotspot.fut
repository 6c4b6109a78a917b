-- A 2-D heat stencil in the style of Rodinia's hotspot: `iterations`
-- explicit Euler steps of the temperature of a 16 mm × 16 mm, 0.5 mm thick
-- silicon chip divided into an r×c grid, heated by a per-cell power
-- dissipation and cooled towards an ambient 80 degrees. Each cell exchanges
-- heat with its four neighbours; at the edges a missing neighbour is
-- replaced by the cell itself. Single precision.
-- ==
-- nobench input {
--   2i32
--   [[334.503876f32, 331.129517f32, 326.519653f32], [330.366974f32, 331.108826f32, 335.685455f32],
--    [322.122192f32, 331.205933f32, 324.969879f32], [325.53833f32, 335.445221f32, 330.154266f32]]
--   [[0.000393210561f32, 0.000531995203f32, 0.000638741651f32],
--    [0.00031027387f32, 0.000428769505f32, 0.000353887182f32],
--    [0.000358513033f32, 0.000484911696f32, 0.00031664205f32],
--    [0.000373299816f32, 0.000334625423f32, 0.000659050769f32]] }
-- output {
--   [[334.46994f32, 331.096008f32, 326.486816f32], [330.333588f32, 331.075378f32, 335.651276f32],
--    [322.089966f32, 331.172424f32, 324.937286f32], [325.505615f32, 335.411102f32, 330.12088f32]] }
-- notest input @ data/hotspot-1024.in

def main [r][c] (iterations: i32) (temp: [r][c]f32) (power: [r][c]f32) : [r][c]f32 =
  let chip_height = 0.016f32
  let chip_width = 0.016f32
  let t_chip = 0.0005f32
  let k_si = 100f32
  let spec_heat = 1.75e6f32
  let max_pd = 3.0e6f32
  let precision = 0.001f32
  let amb = 80f32
  let grid_h = chip_height / f32.i64 r
  let grid_w = chip_width / f32.i64 c
  let cap = 0.5f32 * spec_heat * t_chip * grid_w * grid_h
  let rx = grid_w / (2f32 * k_si * t_chip * grid_h)
  let ry = grid_h / (2f32 * k_si * t_chip * grid_w)
  let rz = t_chip / (k_si * grid_h * grid_w)
  let max_slope = max_pd / (0.5f32 * t_chip * spec_heat)
  let step = precision / max_slope
  let k = step / cap
  let rx1 = 1f32 / rx
  let ry1 = 1f32 / ry
  let rz1 = 1f32 / rz
  in loop t = temp for _i < iterations do
       tabulate_2d r c (\i j ->
         let here = t[i, j]
         let up = t[i64.max 0 (i - 1), j]
         let down = t[i64.min (r - 1) (i + 1), j]
         let west = t[i, i64.max 0 (j - 1)]
         let east = t[i, i64.min (c - 1) (j + 1)]
         in here + k * (power[i, j] + (down + up - 2f32 * here) * ry1
                        + (east + west - 2f32 * here) * rx1 + (amb - here) * rz1))
