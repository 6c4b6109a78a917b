-- A function argument whose evaluation consumes something.
-- ==
-- error: consuming-argument.*contains consumption

def set (xs: *[]f32) (i: i64) = xs with [i] = 1

def main (buf: *[]f32) = map (set buf) (iota 3)
