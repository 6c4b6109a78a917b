-- A type parameter declared without `^` cannot stand for a function type.
-- ==
-- error: higher-order-instantiation.*Cannot instantiate type parameter "t" with functional type
def twice 't (f: t -> t) (x: t) : t = f (f x)
def compose_self (g: i32 -> i32) : i32 -> i32 = twice (\h -> \y -> h (h y)) g
def main (x: i32) = compose_self (\y -> y + 1) x
