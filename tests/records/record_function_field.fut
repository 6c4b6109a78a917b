-- A record passed to and returned from a function.
-- ==
-- input { 2.0 3.0 } output { 3.0 2.0 }
type pt = {x: f64, y: f64}
def flip_pt (p: pt) : pt = {x = p.y, y = p.x}
def main (a: f64) (b: f64) = let p = flip_pt {x = a, y = b} in (p.x, p.y)
