-- Several entry points in one file.
-- ==
-- entry: add
-- input { 1 2 } output { 3 }
-- ==
-- entry: negate_all
-- input { [1, -2] } output { [-1, 2] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry add (a: i32) (b: i32) = a + b
entry negate_all (xs: []i32) = map i32.neg xs
