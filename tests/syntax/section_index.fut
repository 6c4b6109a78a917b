-- Index sections (.[i]) and (.[i, j]).
-- ==
-- input { [[1, 2], [3, 4]] } output { [2, 4] 3 }
def main (xss: [][]i32) = (map (.[1]) xss, (.[1, 0]) xss)
