-- A literal's type is inferred from the function it is passed to.
-- ==
-- input { 5i64 } output { 8i64 }
def add (a: i64) (b: i64) = a + b
def main (x: i64) = add x 3
