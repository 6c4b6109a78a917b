-- iterate_while applies f while the predicate holds (possibly zero times).
-- ==
-- input { 1 } output { 128 }
-- input { 200 } output { 200 }
def main (x: i32) = iterate_while (< 100) (* 2) x
