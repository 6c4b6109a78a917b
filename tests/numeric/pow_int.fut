-- Integer exponentiation with **, including wrapping results.
-- ==
-- input { } output { 1024 -27 1 -2147483648 1 4052555153018976267i64 0u8 243u8 }
def main =
  (2 ** 10, (-3) ** 3, 0 ** 0, 2 ** 31, 7 ** 0, 3i64 ** 39, 2u8 ** 8, 3u8 ** 5)
