-- Polymorphic higher-order helpers taking operators and neutral elements.
-- ==
-- input { [3, 1, 4, 1, 5] } output { 14 60 5 1 }
def fold 'a (op: a -> a -> a) (ne: a) (xs: []a) : a = reduce op ne xs
def main (xs: []i32) =
  ( fold (+) 0 xs
  , fold (*) 1 xs
  , fold i32.max i32.lowest xs
  , fold (\a b -> if a < b then a else b) i32.highest xs )
