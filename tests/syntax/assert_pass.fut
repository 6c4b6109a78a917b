-- An assert whose condition holds returns its body.
-- ==
-- input { 4 } output { 8 }
def main (x: i32) = assert (x > 0) (x * 2)
