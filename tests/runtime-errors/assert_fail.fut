-- A failing assert is a run-time error.
-- ==
-- input { 4 } output { 2 }
-- input { -4 } error: Assertion is false
def main (x: i32) = assert (x > 0) (x / 2)
