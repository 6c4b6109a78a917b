-- transpose twice is the identity; transpose composes with map.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] [9, 12] }
def main (xss: [][]i32) =
  (transpose (transpose xss), map (reduce (+) 0) (transpose xss))
