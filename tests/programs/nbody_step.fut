-- One semi-implicit Euler step of a 3-body gravitational simulation in f64 (G = 1, no softening):
-- a_i = sum_{j /= i} m_j (p_j - p_i) / |p_j - p_i|^3, v' = v + dt a, p' = p + dt v'.
-- ==
-- input { 0.1
--         [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
--         [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]
--         [10.0, 1.0, 2.0] }
-- output { [[0.01, 0.005, 0.0], [0.8982111456180002, 0.10357770876399966, 0.0], [-0.09910557280900009, 1.9732111456180002, 0.0]]
--          [[0.1, 0.05, 0.0], [-1.0178885438199985, 1.0357770876399965, 0.0], [-0.9910557280900009, -0.2678885438199983, 0.0]] }
type vec3 = (f64, f64, f64)

def vsub (a: vec3) (b: vec3) : vec3 = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
def vadd (a: vec3) (b: vec3) : vec3 = (a.0 + b.0, a.1 + b.1, a.2 + b.2)
def vscale (s: f64) (a: vec3) : vec3 = (s * a.0, s * a.1, s * a.2)
def to3 (r: [3]f64) : vec3 = (r[0], r[1], r[2])
def from3 (v: vec3) : [3]f64 = [v.0, v.1, v.2]

def main [n] (dt: f64) (pos: [n][3]f64) (vel: [n][3]f64) (mass: [n]f64) =
  let ps = map to3 pos
  let vs = map to3 vel
  let accel i =
    reduce vadd (0, 0, 0)
      (map2 (\j pj ->
               if j == i then (0, 0, 0)
               else let d = vsub pj ps[i]
                    let r2 = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
                    in vscale (mass[j] / (r2 * f64.sqrt r2)) d)
            (iota n) ps)
  let vs' = map2 (\i v -> vadd v (vscale dt (accel i))) (iota n) vs
  let ps' = map2 (\p v -> vadd p (vscale dt v)) ps vs'
  in (map from3 ps', map from3 vs')
