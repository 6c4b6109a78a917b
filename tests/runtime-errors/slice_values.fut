-- An invalid slice's error shows the index as written (with the values of
-- the parts that were written) and the shape of the indexed dimensions, as
-- Futhark's does. A zero stride is out of bounds too.
-- ==
-- entry: one
-- input { [1,2,3,4,5] 1i64 3i64 } output { [2,3] }
-- input { [1,2,3,4,5] 3i64 3i64 } output { empty([0]i32) }
-- input { [1,2,3,4,5] 1i64 0i64 } error: Index \[1:0\] out of bounds for array of shape \[5\]\.
-- input { [1,2,3,4,5] 2i64 7i64 } error: Index \[2:7\] out of bounds for array of shape \[5\]\.
-- input { [1,2,3,4,5] -1i64 2i64 } error: Index \[-1:2\] out of bounds for array of shape \[5\]\.

-- ==
-- entry: strided
-- input { [1,2,3,4,5] 2i64 } output { [1,3,5] }
-- input { [1,2,3,4,5] -1i64 } error: Index \[:5:-1\] out of bounds for array of shape \[5\]\.
-- input { [1,2,3,4,5] 0i64 } error: Index \[:5:0\] out of bounds for array of shape \[5\]\.

-- ==
-- entry: two
-- input { [[1,2,3],[4,5,6]] 1i64 1i64 } output { [5,6] }
-- input { [[1,2,3],[4,5,6]] 2i64 1i64 } error: Index \[2, 1:\] out of bounds for array of shape \[2\]\[3\]\.
-- input { [[1,2,3],[4,5,6]] 0i64 4i64 } error: Index \[0, 4:\] out of bounds for array of shape \[2\]\[3\]\.

-- ==
-- entry: update
-- input { [1,2,3,4,5] 3i64 } output { [1,2,3,0,0] }
-- input { [1,2,3,4,5] 4i64 } error: Index \[4:6\] out of bounds for array of shape \[5\]\.

entry one (xs: []i32) (i: i64) (j: i64) = xs[i:j]
entry strided (xs: []i32) (s: i64) = xs[:5:s]
entry two (xss: [][]i32) (i: i64) (j: i64) = xss[i, j:]
entry update (xs: *[]i32) (i: i64) = xs with [i:i+2] = [0, 0]
