-- A type abbreviation with a size parameter.
-- ==
-- input { [1f32, 2f32, 3f32] } output { [2f32, 4f32, 6f32] }
type vec [n] = [n]f32
def scale [n] (a: f32) (v: vec [n]) : vec [n] = map (* a) v
def main (xs: []f32) = scale 2 xs
