-- `!` is a prefix operator; it cannot be defined as an infix one.
-- ==
-- error: parse-error.*'!' is a prefix operator and cannot be used as infix operator
def (a: i32) ! (b: i32) = a - b
def main (x: i32) = x
