-- Records, sum types, pattern matching, polymorphism, a higher-order function.
type shape = #circle f64 | #rect f64 f64 | #empty
def area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0
def twice 'a (f: a -> a) (x: a) : a = f (f x)
-- ==
-- input { [1.0, 2.0] [3.0, 4.0] } output { 23.0 14.0 }
def main (ws: []f64) (hs: []f64) =
  let shapes = map2 (\w h -> if w > 1.5 then #rect w h else #circle w) ws hs
  let p = {x = 1.0, y = 2.0}
  let total = f64.sum (map area shapes) + twice (\v -> v * 2.0) p.y - 2.0 * p.x + 6.0
  in (total, ({z = f64.maximum hs + 10.0}).z)
