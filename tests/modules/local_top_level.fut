-- `local` at the top of a file: the definition is usable below but not
-- exported by `module m = import "…"` of this file.
-- ==
-- input { 4 } output { 17 }

local def helper (x: i32) = x * 4

def main (x: i32) = helper x + 1
