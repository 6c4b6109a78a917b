-- Count words in a string ([]u8): a word starts at a non-space whose predecessor is a space
-- (or which is the first character).
-- ==
-- input { "the quick  brown fox " } output { 4i64 }
-- input { "   " } output { 0i64 }
-- input { "single" } output { 1i64 }
-- input { empty([0]u8) } output { 0i64 }
def main [n] (s: [n]u8) : i64 =
  let is_space c = c == ' '
  in map (\i -> if !(is_space s[i]) && (i == 0 || is_space s[i - 1]) then 1 else 0) (iota n)
     |> i64.sum
