type point = {x: f64, y: f64}
def add (a: point) (b: point) : point = {x = a.x + b.x, y = a.y + b.y}
entry main (a: f64) (b: f64) : f64 = let p = add {x=a, y=b} {x=b, y=a} in p.x * p.y
