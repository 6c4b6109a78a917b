-- A size-lifted abbreviation in a parameter: its anonymous size is a size
-- parameter of the function, so values of any size can be passed.
-- ==
-- input { 2i64 } output { 3i64 2i64 }
type~ bag = {items: []i32, tag: i32}
def count (b: bag) : i64 = length b.items
def mk (n: i64) : bag = {items = replicate n 1, tag = 0}
def main (n: i64) = (count {items = [1, 2, 3], tag = 1}, count (mk n))
