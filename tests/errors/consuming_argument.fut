-- A consuming function cannot be passed to map, whose function argument observes.
-- ==
-- error: consuming-argument
def upd (xs: *[3]i32) : [3]i32 = xs with [0] = 0
def main (xss: *[2][3]i32) = map upd xss
