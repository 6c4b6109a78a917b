-- A function returning an array of anonymous (existential) size.
-- ==
-- input { [1, 2, 3, 4, 5, 6] } output { [2, 4, 6] }
def evens (xs: []i32) : []i32 = filter (\x -> x % 2 == 0) xs
def main (xs: []i32) = evens xs
