-- Palindrome check on strings by comparing with the reversed string; also
-- converts lower-case ASCII letters to upper case with map.
-- ==
-- input { "racecar" } output { true "RACECAR" }
-- input { "abca" } output { false "ABCA" }
-- input { "" } output { true "" }
def main (s: []u8) =
  (and (map2 (==) s (reverse s)),
   map (\c -> if c >= 'a' && c <= 'z' then c - 32 else c) s)
