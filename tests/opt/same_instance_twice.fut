-- One size-polymorphic function (`unflatten`, with two size parameters)
-- called twice with the same sizes, once on a fresh array and once on an
-- array updated in place, inside a map. Lowering shares one instance
-- between the calls whatever order it bound the sizes in, so the optimised
-- IR is the same on every compilation (crates/ogham-driver/tests/
-- optimised_ir.rs compiles it repeatedly), and the array each element
-- updates is its own.
-- ==
-- input { 3i64 } output { [[[7i64, 7i64], [7i64, 3i64]], [[0i64, 1i64], [2i64, 3i64]], [[0i64, 1i64], [2i64, 3i64]]] }
-- input { 0i64 } output { empty([0][2][2]i64) }

def side = 2i64

def square (i: i64) : [side][side]i64 =
  let sq = unflatten (iota (side * side))
  in if i == 0
     then unflatten (scatter (flatten sq) (iota 3) (replicate 3 7))
     else sq

def main (k: i64) : [k][side][side]i64 = map square (iota k)
