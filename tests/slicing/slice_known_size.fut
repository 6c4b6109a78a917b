-- a[:n] has the statically known size n, so it can be zipped with an [n] array.
-- ==
-- input { [1, 2, 3, 4, 5] [10, 20] } output { [11, 22] }
def main [n] (a: []i32) (b: [n]i32) = map2 (+) a[:n] b
