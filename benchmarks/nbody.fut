-- N-body, one step of all-pairs forces: the acceleration of every body
-- from all bodies (softened gravity with G = 1 and ε² = 0.01, so a body's
-- own term is zero). Inputs: positions x, y, z and masses; outputs: the
-- accelerations along x, y and z. Single precision.
-- ==
-- nobench input {
--   [-0.35233447f32, -0.698301673f32, 0.301868945f32, -0.855127454f32, 0.0717640072f32]
--   [-0.26862216f32, -0.884002149f32, 0.014871466f32, -0.925008655f32, -0.132708639f32]
--   [-0.860289156f32, -0.818573952f32, -0.150961623f32, 0.653704226f32, -0.752396107f32]
--   [0.723238945f32, 1.12743318f32, 1.44770896f32, 1.0771029f32, 0.896680474f32] }
-- output {
--   [3.42779541f32, 1.60451198f32, -1.7360189f32, 0.595678508f32, -2.69488621f32]
--   [-0.46246314f32, 2.12111354f32, -1.14687848f32, 0.494332254f32, -1.03609133f32]
--   [2.37753963f32, 0.732382417f32, -2.34833694f32, -1.1527003f32, 2.3375597f32] }
-- notest input @ data/nbody-10000.in
-- notest input @ data/nbody-100000.in

def eps2 : f32 = 0.01f32

def add3 (a: (f32, f32, f32)) (b: (f32, f32, f32)) : (f32, f32, f32) =
  (a.0 + b.0, a.1 + b.1, a.2 + b.2)

def main [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  let accel (xi: f32) (yi: f32) (zi: f32) : (f32, f32, f32) =
    let pull (xj: f32) (yj: f32) (zj: f32) (mj: f32) : (f32, f32, f32) =
      let dx = xj - xi
      let dy = yj - yi
      let dz = zj - zi
      let r2 = dx * dx + dy * dy + dz * dz + eps2
      let inv = 1f32 / f32.sqrt r2
      let s = mj * inv * inv * inv
      in (dx * s, dy * s, dz * s)
    in reduce add3 (0f32, 0f32, 0f32) (map4 pull xs ys zs ms)
  in unzip3 (map3 accel xs ys zs)
