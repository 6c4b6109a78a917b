-- rotate r xs moves elements left by r: result[i] = xs[(i + r) mod n].
-- Negative amounts rotate right; amounts larger than n wrap around.
-- ==
-- input { 1i64 [1, 2, 3, 4, 5] } output { [2, 3, 4, 5, 1] }
-- input { -1i64 [1, 2, 3, 4, 5] } output { [5, 1, 2, 3, 4] }
-- input { 0i64 [1, 2, 3] } output { [1, 2, 3] }
-- input { 7i64 [1, 2, 3, 4, 5] } output { [3, 4, 5, 1, 2] }
-- input { -6i64 [1, 2, 3, 4, 5] } output { [5, 1, 2, 3, 4] }
def main (r: i64) (xs: []i32) = rotate r xs
