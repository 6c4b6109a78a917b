-- hypot on f64.
-- ==
-- input { 3.0f64 4.0f64 } output { 5.0f64 }
-- input { -5.0f64 12.0f64 } output { 13.0f64 }
-- input { 0.0f64 0.0f64 } output { 0.0f64 }
-- input { 1e200f64 1e200f64 } output { 1.414213562373095e200f64 }
def main (x: f64) (y: f64) = f64.hypot x y
