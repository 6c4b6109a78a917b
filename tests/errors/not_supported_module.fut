-- Module declarations are outside the supported core language.
-- ==
-- error: not-supported-yet
module m = { def x : i32 = 1 }
def main (y: i32) = y + m.x
