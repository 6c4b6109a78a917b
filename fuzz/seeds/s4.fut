type shape = #circle f32 | #rect f32 f32
def area (s: shape) : f32 = match s case #circle r -> 3.14 * r * r case #rect w h -> w * h
entry main (b: bool) (x: f32) : f32 = area (if b then #circle x else #rect x x)
