-- `break` is the identity (ogham has no debugger to stop in).
-- ==
-- input { [1, 2] } output { [1, 2] }
def main (xs: []i32) = break xs
