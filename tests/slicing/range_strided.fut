-- Strided ranges: the stride is the second element minus the first.
-- ==
-- input { } output { [0, 2, 4, 6, 8] [10, 8, 6, 4, 2, 0] [1, 3, 5, 7, 9] }
def main = (0..2..<10, 10..8...0, 1..3...9)
