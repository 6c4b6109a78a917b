-- Values of a type parameter cannot be compared with ==.
-- ==
-- error: equality-not-supported.*does not support equality
def same 'e (a: e) (b: e) = a == b
def main (x: i32) = same x x
