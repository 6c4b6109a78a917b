-- A size-polymorphic function comparing arrays with ==.
-- ==
-- input { [1, 2, 3] } output { true false }
def is_palindrome [n] (xs: [n]i32) : bool = xs == (xs[::-1] :> [n]i32)
def main (xs: []i32) = (is_palindrome [1, 2, 1], is_palindrome xs)
