-- Slices with an omitted start or end: a[:2] and a[4:].
-- ==
-- input { [10, 20, 30, 40, 50, 60] } output { [10, 20] [50, 60] }
def main (a: []i32) = (a[:2], a[4:])
