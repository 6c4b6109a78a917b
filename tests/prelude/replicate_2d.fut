-- Nested replicate and replicate of an array.
-- ==
-- input { 2i64 3i64 } output { [[1.5, 1.5, 1.5], [1.5, 1.5, 1.5]] [[1, 2], [1, 2]] }
-- input { 0i64 3i64 } output { empty([0][3]f64) empty([0][2]i32) }
def main (n: i64) (m: i64) = (replicate n (replicate m 1.5), replicate n [1, 2])
