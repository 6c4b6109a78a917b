-- A negative stride goes from i down to j, exclusive: a[3:0:-1].
-- ==
-- input { [10, 20, 30, 40, 50, 60] } output { [40, 30, 20] }
def main (a: []i32) = a[3:0:-1]
