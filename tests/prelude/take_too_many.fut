-- take more elements than the array has is a run-time error.
-- ==
-- input { 4i64 [1, 2, 3] } error: .
def main (k: i64) (xs: []i32) = take k xs
