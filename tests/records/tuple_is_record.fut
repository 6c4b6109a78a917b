-- Tuples are records with numeric field names.
-- ==
-- input { 1 2 } output { true 2 }
def main (a: i32) (b: i32) =
  let t: (i32, i32) = {0 = a, 1 = b}
  in (t == (a, b), t.1)
