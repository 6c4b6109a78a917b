-- Records of vectors, type abbreviations and a fold over bodies.
-- ==
-- input { [0.0, 1.0] [0.0, 0.0] [1.0, 1.0] }
-- output { [1.0, -1.0] [0.0, 0.0] }
type v2 = {x: f64, y: f64}
type body = {pos: v2, mass: f64}
def (-.) (a: v2) (b: v2) : v2 = {x = a.x - b.x, y = a.y - b.y}
def (+.) (a: v2) (b: v2) : v2 = {x = a.x + b.x, y = a.y + b.y}
def scale (s: f64) ({x, y}: v2) : v2 = {x = s * x, y = s * y}
def accel (b: body) (o: body) : v2 =
  let d = o.pos -. b.pos
  let r2 = d.x * d.x + d.y * d.y
  in if r2 == 0 then {x = 0, y = 0} else scale (o.mass / (r2 * f64.sqrt r2)) d
def main (xs: []f64) (ys: []f64) (ms: []f64) =
  let bodies = map3 (\x y m -> {pos = {x, y}, mass = m}) xs ys ms
  let acc = map (\b -> reduce (+.) {x = 0, y = 0} (map (accel b) bodies)) bodies
  in (map (.x) acc, map (.y) acc)
