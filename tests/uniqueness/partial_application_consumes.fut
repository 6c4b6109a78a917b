-- Binding a partial application that consumes its argument would let the
-- function value consume it again at every call.
-- ==
-- error: contains-consumption

def set (xs: *[]f32) (i: i64) = xs with [i] = 1

def main (buf: *[]f32) =
  let h = set buf
  in h 0
