-- scan with a non-commutative operator: composition of affine maps x -> a*x + b.
-- Element i of the result gives x_i where x_i = a_i * x_(i-1) + b_i and x_(-1) = 0.
-- ==
-- input { [2, 3, 1, -1, 2] [1, 0, 5, 2, -3] } output { [1, 3, 8, -6, -15] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) }
def compose (a1: i32, b1: i32) (a2: i32, b2: i32) = (a2 * a1, a2 * b1 + b2)

def main [n] (as: [n]i32) (bs: [n]i32) =
  let (_, xs) = unzip (scan compose (1, 0) (zip as bs))
  in xs
