-- Parameters with fixed inner dimensions; vectors as [3]f32.
-- ==
-- input { [[1.0f32, 0.0f32, 0.0f32], [0.0f32, 2.0f32, 0.0f32]] }
-- output { [1.0f32, 2.0f32] [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 0.0f32, 1.0f32]] }
type vec3 = [3]f32
def norm (v: vec3) = f32.sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
def cross (a: vec3) (b: vec3) : vec3 =
  [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def main (vs: [][3]f32) =
  (map norm vs, map (\v -> cross vs[0] (map (/ 2) v)) vs)
