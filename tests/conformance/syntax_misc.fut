-- Assorted syntax: ranges in for-in loops, lambda return types, nested
-- tuple projection, expression ascriptions, negative literals in sections.
-- ==
-- input { 5i64 } output { 10i64 15i64 3 -2 [0i64, 2i64, 4i64] 2 [3, 2, 1] }
def main (n: i64) =
  let a = loop acc = 0 for i in 0..<n do acc + i
  let b = loop acc = 0 for i in 1...n do acc + i
  let t = ((1, (2, 3)), 4)
  let f = \(x: i32) : i32 -> x - 5
  let evens = 0..2..<n
  let m = (t.0.1.0 : i32)
  in (a, b, t.0.1.1, f 3, evens, m, 3..2...1)
