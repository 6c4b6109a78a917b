-- reverse on 1-d arrays, including an empty one; reversing twice is the identity.
-- ==
-- input { [1, 2, 3, 4] } output { [4, 3, 2, 1] [1, 2, 3, 4] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
def main (xs: []i32) = (reverse xs, reverse (reverse xs))
