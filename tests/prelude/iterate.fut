-- iterate applies a function a fixed number of times.
-- ==
-- input { 1 } output { 1024 1 }
-- input { 3 } output { 3072 3 }
def main (x: i32) = (iterate 10 (* 2) x, iterate 0 (* 2) x)
