-- reduce_comm with a commutative and associative operator.
-- ==
-- input { [5, 3, 9, 1] } output { 18 9 }
-- input { empty([0]i32) } output { 0 -2147483648 }
def main (xs: []i32) =
  (reduce_comm (+) 0 xs, reduce_comm i32.max i32.lowest xs)
