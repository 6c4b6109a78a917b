-- Prefix minus on integers and floats.
-- ==
-- input { 3 2.5 } output { -3 -6 -2.5 5 }
def main (x: i32) (y: f64) = (-x, -x * 2, -y, 2 - -x)
