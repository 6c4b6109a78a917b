-- A basic slice a[i:j] takes elements i up to (not including) j.
-- ==
-- input { [10, 20, 30, 40, 50, 60] } output { [20, 30] }
def main (a: []i32) = a[1:3]
