-- Updating a strided slice: every second element.
-- ==
-- input { [1, 2, 3, 4] } output { [0, 2, 0, 4] }
def main (a: *[]i32) = a with [::2] = [0, 0]
