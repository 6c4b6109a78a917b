-- Polymorphic functions with type and size parameters.
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] [1, 2, 3, 1, 2, 3] 3i64 [[1, 2, 3], [1, 2, 3]] }
def rev 't [n] (xs: [n]t) : [n]t = map (\i -> xs[n - 1 - i]) (iota n)
def dup 't [n] (xs: [n]t) : [n + n]t = xs ++ xs
def len 't [n] (_: [n]t) : i64 = n
def twice 'a (x: a) : [2]a = [x, x]
def main (xs: []i32) = (rev xs, dup xs, len xs, twice xs)
