-- The <| operator applies right to left and is right-associative.
-- ==
-- input { [1, 2, 3] } output { 12 }
def main (xs: []i32) = reduce (+) 0 <| map (* 2) <| xs
