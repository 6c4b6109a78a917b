-- A slice with stride: a[::2] and a[1::2].
-- ==
-- input { [10, 20, 30, 40, 50, 60] } output { [10, 30, 50] [20, 40, 60] }
def main (a: []i32) = (a[::2], a[1::2])
