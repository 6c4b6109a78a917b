-- Nested loops.
-- ==
-- input { 3 4 } output { 18 }
def main (n: i32) (m: i32) =
  loop acc = 0 for i < n do
    loop acc for j < m do acc + i * j
