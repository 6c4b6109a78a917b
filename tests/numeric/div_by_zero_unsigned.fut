-- Unsigned division by zero is a run-time error.
-- ==
-- input { 7u32 0u32 } error: division by zero
-- input { 9u32 2u32 } output { 4u32 }
def main (a: u32) (b: u32) = a // b
