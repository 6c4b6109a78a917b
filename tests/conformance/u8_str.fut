-- Working with strings as u8 arrays: count vowels, uppercase.
-- ==
-- input { "hello world" } output { 3i64 "HELLO WORLD" }
def is_vowel (c: u8) = c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'
def upper (c: u8) : u8 = if c >= 'a' && c <= 'z' then c - 32 else c
def main (s: []u8) = (length (filter is_vowel s), map upper s)
