-- atan2 y x on f64 picks the quadrant from the signs of both arguments.
-- ==
-- input { 1.0f64 1.0f64 } output { 0.7853981633974483f64 }
-- input { 1.0f64 -1.0f64 } output { 2.356194490192345f64 }
-- input { -1.0f64 -1.0f64 } output { -2.356194490192345f64 }
-- input { 0.0f64 -1.0f64 } output { 3.141592653589793f64 }
-- input { -2.0f64 0.0f64 } output { -1.5707963267948966f64 }
-- input { 3.0f64 4.0f64 } output { 0.6435011087932844f64 }
def main (y: f64) (x: f64) = f64.atan2 y x
